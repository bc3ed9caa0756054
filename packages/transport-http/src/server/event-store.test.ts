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

  it("drops least recently written streams past maxEvents, and forgets streams on request", async () => {
    const store = createMemoryEventStore({ maxEvents: 4 });
    const a = await store.append("a", note(1));
    const b = await store.append("b", note(1));
    await store.append("b", note(2));
    await store.append("c", note(1));
    await store.append("c", note(2)); // 5 events: "a" goes
    expect(await store.replay(a)).toBeUndefined();
    expect(await store.replay(b)).toBeDefined();
    await store.forget(["b"]);
    expect(await store.replay(b)).toBeUndefined();
  });

  it("rejects bad limits with a TypeError", () => {
    expect(() => createMemoryEventStore({ maxEvents: 0 })).toThrow(TypeError);
    expect(() => createMemoryEventStore({ maxEventsPerStream: 1.5 })).toThrow(TypeError);
  });
});
