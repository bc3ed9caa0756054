/**
 * The `TaskStore` contract as a test suite (test support, not exported from the package): every
 * store runs it (the in-memory store here, the Redis store in `@proto/redis-stores`), so both
 * keep the same promises (see `TaskStore` in `store.ts`).
 */
import { describe, expect, it } from "vitest";
import type { TaskRecord, TaskStore } from "./store";
import { LEASE_LOST_ERROR } from "./store";

/** A fresh, empty store for one test, and its clock. */
export interface ContractStore {
  readonly store: TaskStore;
  /** The store's clock (ms since the epoch). */
  now(): number;
  /** Lets `ms` pass on the store's clock (a fake clock moves; a real store waits). */
  advance(ms: number): Promise<void>;
  /** Ends what the store holds (connections). */
  close?(): Promise<void>;
}

/** Makes a store keeping at most `maxTasks`. */
export type ContractStoreFactory = (options: { readonly maxTasks: number }) => Promise<ContractStore>;

const LEASE = 60_000;
const elicit = { method: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object", properties: {} } } } as const;

/** Runs the contract against the stores `make` creates. `scale` shortens the suite's waits (ms of TTL and lease), for real clocks. */
export function describeTaskStoreContract(name: string, make: ContractStoreFactory, scale = { ttlMs: 10_000, leaseMs: 10_000 }): void {
  const withStore = (maxTasks: number, test: (s: ContractStore, record: (id: string, extra?: Partial<TaskRecord>) => TaskRecord) => Promise<void>) => async () => {
    const s = await make({ maxTasks });
    const record = (id: string, extra: Partial<TaskRecord> = {}): TaskRecord => ({
      taskId: id, owner: "principal:a", method: "tools/call", status: "working", createdAt: s.now(), lastUpdatedAt: s.now(), ttlMs: 600_000, pollIntervalMs: 100, ...extra,
    });
    try {
      await test(s, record);
    } finally {
      await s.close?.();
    }
  };

  describe(`the TaskStore contract: ${name}`, () => {
    it("stores, reads back and never changes a terminal task", withStore(10, async ({ store }, record) => {
      await store.create(record("t1", { statusMessage: "go" }), LEASE);
      expect(await store.get("t1")).toMatchObject({ taskId: "t1", owner: "principal:a", status: "working", statusMessage: "go", ttlMs: 600_000, pollIntervalMs: 100 });
      await expect(store.create(record("t1"), LEASE)).rejects.toThrow(/exists/);
      const done = await store.update("t1", { status: "completed", result: { content: [], structuredContent: { list: [], empty: {} } }, lastUpdatedAt: 7 });
      expect(done).toMatchObject({ applied: true, record: { status: "completed", lastUpdatedAt: 7, result: { content: [], structuredContent: { list: [], empty: {} } } } });
      const late = await store.update("t1", { status: "cancelled" });
      expect(late).toMatchObject({ applied: false, record: { status: "completed" } });
      expect(await store.get("nope")).toBeUndefined();
      expect(await store.update("nope", { status: "failed" })).toBeUndefined();
      expect(await store.answer("nope", { k: 1 }, 1)).toBeUndefined();
    }));

    it("records answers to outstanding input requests once, ignores others, and hands each over once", withStore(10, async ({ store }, record) => {
      await store.create(record("t1"), LEASE);
      await store.update("t1", { status: "input_required", inputRequests: { a: elicit, b: elicit } });
      const first = await store.answer("t1", { a: { action: "accept", content: { name: "x" } }, zz: {} }, 5);
      expect(first?.record).toMatchObject({ status: "input_required", inputRequests: { b: elicit } });
      // the running instance re-stores its outstanding inputs before claiming: an answered key stays answered
      const synced = await store.update("t1", { status: "input_required", inputRequests: { a: elicit, b: elicit } });
      expect(Object.keys(synced?.record.inputRequests ?? {})).toEqual(["b"]);
      const second = await store.answer("t1", { a: { action: "decline" }, b: { action: "cancel" } }, 9);
      expect(second?.record).toMatchObject({ status: "working", lastUpdatedAt: 9 });
      expect(second?.record.inputRequests).toBeUndefined();
      expect(await store.claim("t1")).toEqual({ a: { action: "accept", content: { name: "x" } }, b: { action: "cancel" } });
      expect(await store.claim("t1")).toEqual({});
      await store.update("t1", { status: "input_required", inputRequests: {} });
      expect((await store.get("t1"))?.status).toBe("working");
      await store.update("t1", { status: "failed", error: { code: -1, message: "x" }, inputRequests: { c: elicit } });
      expect((await store.get("t1"))?.inputRequests).toBeUndefined();
      expect(await store.answer("t1", { c: {} }, 1)).toMatchObject({ applied: false });
    }));

    it("forgets a task once its TTL elapsed", withStore(10, async (s, record) => {
      await s.store.create(record("t1", { ttlMs: scale.ttlMs }), LEASE);
      await s.store.create(record("t2", { ttlMs: null }), LEASE);
      await s.advance(scale.ttlMs + 50);
      expect(await s.store.get("t1")).toBeUndefined();
      expect(await s.store.update("t1", { status: "completed" })).toBeUndefined();
      expect((await s.store.list("principal:a", undefined, 10)).records.map((r) => r.taskId)).toEqual(["t2"]);
      expect((await s.store.get("t2"))?.ttlMs).toBeNull();
    }));

    it("fails an unfinished task whose lease ran out, and keeps one that is renewed", withStore(10, async (s, record) => {
      await s.store.create(record("lost"), scale.leaseMs);
      await s.store.create(record("kept"), scale.leaseMs);
      await s.store.update("lost", { status: "input_required", inputRequests: { a: elicit } });
      await s.advance(scale.leaseMs / 2);
      await s.store.update("kept", { status: "input_required", inputRequests: { a: elicit } });
      expect(await s.store.renew(["kept", "unknown"], scale.leaseMs)).toEqual(["unknown"]);
      await s.advance(scale.leaseMs / 2 + 50);
      const lost = await s.store.get("lost");
      expect(lost).toMatchObject({ status: "failed", error: LEASE_LOST_ERROR, statusMessage: LEASE_LOST_ERROR.message });
      expect(lost?.inputRequests).toBeUndefined();
      expect((await s.store.get("kept"))?.status).toBe("input_required");
      expect(await s.store.update("lost", { status: "completed" })).toMatchObject({ applied: false });
      expect(await s.store.renew(["lost", "kept"], scale.leaseMs)).toEqual(["lost"]);
    }));

    it("lists an owner's tasks newest first, page by page, and refuses a forged cursor", withStore(20, async (s, record) => {
      for (let i = 0; i < 5; i++) await s.store.create(record(`t${i}`, { createdAt: s.now() + i }), LEASE);
      await s.store.create({ ...record("t9"), owner: "principal:b" }, LEASE);
      const first = await s.store.list("principal:a", undefined, 2);
      expect(first.records.map((r) => r.taskId)).toEqual(["t4", "t3"]);
      const second = await s.store.list("principal:a", first.nextCursor, 2);
      const third = await s.store.list("principal:a", second.nextCursor, 2);
      expect([...second.records, ...third.records].map((r) => r.taskId)).toEqual(["t2", "t1", "t0"]);
      expect(third.nextCursor).toBeUndefined();
      await s.store.delete("t2");
      expect((await s.store.list("principal:a", undefined, 10)).records.map((r) => r.taskId)).toEqual(["t4", "t3", "t1", "t0"]);
      await expect(s.store.list("principal:a", "../../etc", 2)).rejects.toThrow(/cursor/);
    }));

    it("keeps thousands of finished tasks within its bound, and refuses a new one when all are unfinished", withStore(50, async ({ store }, record) => {
      // issued in order without waiting for each (a connection keeps the order), 100 at a time
      for (let chunk = 0; chunk < 2000; chunk += 100) {
        const calls: Promise<unknown>[] = [];
        for (let i = chunk; i < chunk + 100; i++) calls.push(store.create(record(`t${i}`), LEASE), store.update(`t${i}`, { status: "completed", result: { content: [] } }));
        await Promise.all(calls);
      }
      expect(await store.get("t0")).toBeUndefined();
      expect((await store.get("t1999"))?.status).toBe("completed");
      expect((await store.list("principal:a", undefined, 100)).records).toHaveLength(50);
      for (let i = 0; i < 50; i++) await store.create(record(`u${i}`), LEASE);
      await expect(store.create(record("u50"), LEASE)).rejects.toMatchObject({ code: "TASK_STORE_FULL" });
      await store.update("u0", { status: "cancelled" });
      await expect(store.create(record("u50"), LEASE)).resolves.toBeUndefined();
      expect(await store.get("u0")).toBeUndefined();
    }));
  });
}
