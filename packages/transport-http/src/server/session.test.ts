import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import { createSession } from "./session";

describe("a session's stream ids in the event store", () => {
  it("forgets finished streams past 1,000 instead of keeping their events for the session's life", async () => {
    const store = createMemoryEventStore({ maxEvents: 100_000 });
    const session = createSession({
      id: "s",
      principalKey: "",
      holder: "anonymous",
      streamPrefix: "p",
      settings: { store, retryMs: 1000, keepAliveMs: 0, closeAfterMs: 0 },
      maxQueued: 10,
      now: () => 0,
      fault: (error) => {
        throw error;
      },
      closed: () => undefined,
    });
    const hooks = { lost: () => undefined, done: () => undefined, fault: () => undefined };
    for (let i = 0; i < 1_500; i++) {
      const stream = session.openStream(hooks);
      await store.append(stream.id, { jsonrpc: "2.0", method: "n" });
      stream.close();
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.size).toBe(1_000); // the 500 oldest streams were forgotten
    await session.close();
    expect(store.size).toBe(0);
  });
});
