import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import { createMemoryMessageBus, createMemoryRequestJournal, createMemorySessionStore } from "./memory-shared";
import { createSessionNotifier } from "./shared";
import { instanceLostError } from "./shared-journal";

const open = { maxSessions: 10, maxSessionsPerPrincipal: undefined, ttlMs: 1_000 };
const request = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "x" } };

describe("in-memory shared seams", () => {
  it("the journal: entries of an instance whose lease expired are claimed once, with their outbound ids", () => {
    let now = 0;
    const journal = createMemoryRequestJournal(() => now);
    journal.heartbeat("a", 100);
    journal.heartbeat("b", 100);
    journal.begin("a", { sessionId: "s", streamId: "x.1", request, outbound: [], attempts: 0 });
    journal.begin("a", { sessionId: "s", streamId: "x.2", request, outbound: [], attempts: 0 });
    journal.end("a", "x.2");
    journal.outbound("a", "x.1", "t~1");
    expect(journal.takeOver("b")).toEqual([]);
    now = 150;
    journal.heartbeat("b", 100);
    expect(journal.takeOver("b")).toEqual([{ sessionId: "s", streamId: "x.1", request, outbound: ["t~1"], attempts: 0 }]);
    expect(journal.takeOver("c")).toEqual([]);
  });

  it("the notifier reaches each member once: through the bus to the GET holder, else into its standalone stream", async () => {
    const sessions = createMemorySessionStore();
    const bus = createMemoryMessageBus();
    const eventStore = createMemoryEventStore();
    for (const id of ["held", "idle", "other"]) await sessions.create({ id, principalKey: "anon", streamPrefix: id }, open);
    await sessions.update("held", { topics: ["resource:a"] });
    await sessions.update("idle", { topics: ["resource:a", "list"] });
    await sessions.update("other", { topics: ["list"] });
    const forwarded: string[] = [];
    await bus.subscribe("g:held", (text) => forwarded.push(text));
    const primed = await eventStore.append("idle.get", undefined);
    const message = { jsonrpc: "2.0" as const, method: "notifications/resources/updated", params: { uri: "a" } };
    expect(await createSessionNotifier({ sessions, bus, eventStore }).notifySessions("resource:a", message)).toBe(2);
    await Promise.resolve();
    expect(forwarded.map((text) => JSON.parse(text) as unknown)).toEqual([[message]]);
    expect((await eventStore.replay(primed))?.events.map((e) => e.message)).toEqual([message]);
  });

  it("announce remembers the last version of each topic", () => {
    const bus = createMemoryMessageBus();
    expect(bus.announce?.("t", "1")).toBe(true);
    expect(bus.announce?.("t", "1")).toBe(false);
    expect(bus.announce?.("u", "1")).toBe(true);
  });

  it("the answer of a lost request: -32603 instance_lost, retryable unless it is a tool call", () => {
    expect(instanceLostError(request)).toMatchObject({ id: 1, error: { code: -32603, data: { reason: "instance_lost", retryable: false } } });
    expect(instanceLostError({ jsonrpc: "2.0", id: "r", method: "resources/read" })).toMatchObject({ error: { data: { retryable: true } } });
  });
});
