import { describe, expect, it } from "vitest";
import { createMemoryTaskStore } from "./memory-store";
import { describeTaskStoreContract } from "./store-contract";

describeTaskStoreContract("in memory", ({ maxTasks }) => {
  let now = 1_000;
  const store = createMemoryTaskStore({ maxTasks, now: () => now });
  return Promise.resolve({ store, now: () => now, advance: (ms: number) => Promise.resolve(void (now += ms)) });
});

describe("the in-memory task store", () => {
  it("keeps its size within the bound while thousands of tasks finish", async () => {
    const store = createMemoryTaskStore({ maxTasks: 500, now: () => 1 });
    for (let i = 0; i < 5000; i++) {
      await store.create({ taskId: `t${i}`, owner: "o", method: "tools/call", status: "working", createdAt: 0, lastUpdatedAt: 0, ttlMs: null, pollIntervalMs: 1 }, 1000);
      await store.update(`t${i}`, { status: "completed", result: {} });
      expect(store.size).toBeLessThanOrEqual(500);
    }
    expect(store.size).toBe(500);
  });

  it("says what to do with a bad bound", () => {
    expect(() => createMemoryTaskStore({ maxTasks: 0 })).toThrow(/positive integer/);
  });
});
