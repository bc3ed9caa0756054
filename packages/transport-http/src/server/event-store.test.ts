import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { createMemoryEventStore } from "./event-store";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "n", params: { n } });

describe("createMemoryEventStore", () => {
  it("issues unique ids per stream and replays only that stream, in order", async () => {
    const store = createMemoryEventStore();
    const prime = await store.append("a", undefined);
    const a1 = await store.append("a", note(1));
    await store.append("b", note(100));
    await store.append("a", note(2));
    expect(new Set([prime, a1]).size).toBe(2);
    expect(await store.replay(prime)).toEqual({ streamId: "a", events: [{ id: a1, message: note(1) }, { id: expect.any(String), message: note(2) }] });
    expect((await store.replay(a1))?.events.map((e) => e.message)).toEqual([note(2)]);
  });

  it("replays nothing after the newest id, and refuses unknown or malformed ids", async () => {
    const store = createMemoryEventStore();
    const last = await store.append("a", note(1));
    expect(await store.replay(last)).toEqual({ streamId: "a", events: [] });
    for (const id of ["", "a", "a:", "a:x", "a:99", "zz:0", ":0", "a:-1", "a:1e3"]) expect(await store.replay(id), id).toBeUndefined();
  });

  it("refuses to resume across evicted events instead of hiding the gap", async () => {
    const store = createMemoryEventStore({ maxEventsPerStream: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) ids.push(await store.append("a", note(i)));
    expect(await store.replay(ids[0] as string)).toBeUndefined(); // events 1 and 2 are gone
    expect(await store.replay(ids[1] as string)).toBeUndefined();
    expect((await store.replay(ids[2] as string))?.events.map((e) => e.message)).toEqual([note(3), note(4), note(5)]);
  });

  it("past maxEvents drops the oldest events of the owner holding the most, and forgets streams on request", async () => {
    const store = createMemoryEventStore({ maxEvents: 4 });
    const a = await store.append("a", note(1));
    const b = await store.append("b", note(1));
    const b2 = await store.append("b", note(2));
    await store.append("c", note(1));
    await store.append("c", note(2)); // 5 events: b (the first of the biggest) loses its oldest
    expect(store.size).toBe(4);
    expect((await store.replay(a))?.events).toEqual([]);
    // b's first event is gone; resuming right after it still misses nothing
    expect((await store.replay(b))?.events.map((e) => e.message)).toEqual([note(2)]);
    expect(await store.replay(b2)).toBeDefined();
    await store.forget(["b"]);
    expect(await store.replay(b2)).toBeUndefined();
    expect(store.size).toBe(3);
    expect(await store.replay(b)).toBeUndefined();
  });

  it("is bounded by bytes: large events evict older ones, never past maxBytes plus the newest event", async () => {
    const maxBytes = 4 * 1024 * 1024;
    const store = createMemoryEventStore({ maxBytes });
    const big = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", id: n, result: { blob: "x".repeat(1024 * 1024) } });
    const ids: string[] = [];
    for (let n = 0; n < 100; n++) {
      ids.push(await store.append("s.0", big(n)));
      expect(store.bytes).toBeLessThanOrEqual(maxBytes + 1024 * 1024 + 128);
    }
    expect(store.size).toBeLessThan(5);
    expect(await store.replay(ids[0] as string)).toBeUndefined();
    expect((await store.replay(ids[98] as string))?.events).toHaveLength(1);
  });

  it("one session flooding the store cannot evict another session's resumable events", async () => {
    const store = createMemoryEventStore();
    const theirs = await store.append("victim.0", note(1));
    await store.append("victim.0", note(2));
    for (let n = 0; n < 12_000; n++) await store.append(`flood.${n % 7}`, note(n));
    expect(store.size).toBeLessThanOrEqual(10_000);
    expect((await store.replay(theirs))?.events.map((e) => e.message)).toEqual([note(2)]);
  });

  it("rejects bad limits with a TypeError", () => {
    expect(() => createMemoryEventStore({ maxEvents: 0 })).toThrow(TypeError);
    expect(() => createMemoryEventStore({ maxEventsPerStream: 1.5 })).toThrow(TypeError);
  });
});
