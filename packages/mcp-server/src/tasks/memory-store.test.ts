import { describe, expect, it } from "vitest";
import { ServerFaultCode } from "../fault-codes";
import { createMemoryTaskStore } from "./memory-store";
import type { TaskRecord } from "./store";

function record(id: number, status: TaskRecord["status"] = "working", ttlMs: number | null = 60_000, createdAt = 0): TaskRecord {
  return { taskId: `t${id}`, owner: "principal:a", method: "tools/call", status, createdAt, lastUpdatedAt: createdAt, ttlMs, pollIntervalMs: 100 };
}

describe("the in-memory task store", () => {
  it("keeps thousands of finished tasks within its bound, evicting the longest finished first", async () => {
    const store = createMemoryTaskStore({ maxTasks: 500, now: () => 1 });
    for (let i = 0; i < 5000; i++) {
      await store.create(record(i));
      await store.update(`t${i}`, { status: "completed", result: { content: [] } });
      expect(store.size).toBeLessThanOrEqual(500);
    }
    expect(store.size).toBe(500);
    expect(await store.get("t0")).toBeUndefined();
    expect((await store.get("t4999"))?.status).toBe("completed");
  });

  it("refuses a new task when every kept task is unfinished, with a code", async () => {
    const store = createMemoryTaskStore({ maxTasks: 2, now: () => 1 });
    await store.create(record(1));
    await store.create(record(2));
    await expect(store.create(record(3))).rejects.toMatchObject({ code: ServerFaultCode.TaskStoreFull });
    await store.update("t1", { status: "failed", error: { code: -32603, message: "x" } });
    await expect(store.create(record(3))).resolves.toBeUndefined();
    expect(await store.get("t1")).toBeUndefined();
  });

  it("forgets a task once its TTL elapsed, and makes room with expired tasks first", async () => {
    let now = 0;
    const store = createMemoryTaskStore({ maxTasks: 2, now: () => now });
    await store.create(record(1, "working", 10));
    await store.create(record(2, "working", null));
    now = 10;
    expect(await store.get("t1")).toBeUndefined();
    expect(await store.update("t1", { status: "completed" })).toBeUndefined();
    await store.create(record(3));
    expect((await store.get("t2"))?.ttlMs).toBeNull();
  });

  it("never changes a terminal task", async () => {
    const store = createMemoryTaskStore({ now: () => 1 });
    await store.create(record(1));
    expect((await store.update("t1", { status: "cancelled" }))?.applied).toBe(true);
    const late = await store.update("t1", { status: "completed", result: {} });
    expect(late).toMatchObject({ applied: false, record: { status: "cancelled" } });
  });

  it("lists an owner's tasks newest first, page by page, and refuses a forged cursor", async () => {
    const store = createMemoryTaskStore({ now: () => 1 });
    for (let i = 0; i < 5; i++) await store.create(record(i));
    await store.create({ ...record(9), owner: "principal:b" });
    const first = await store.list("principal:a", undefined, 2);
    expect(first.records.map((r) => r.taskId)).toEqual(["t4", "t3"]);
    const second = await store.list("principal:a", first.nextCursor, 2);
    const third = await store.list("principal:a", second.nextCursor, 2);
    expect([...second.records, ...third.records].map((r) => r.taskId)).toEqual(["t2", "t1", "t0"]);
    expect(third.nextCursor).toBeUndefined();
    await expect(store.list("principal:a", "../../etc", 2)).rejects.toThrow(/cursor/);
  });

  it("says what to do with a bad bound", () => {
    expect(() => createMemoryTaskStore({ maxTasks: 0 })).toThrow(/positive integer/);
  });
});
