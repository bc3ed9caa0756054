/**
 * `evictWhenFull` with the `shared` option: at `maxSessions` the store's `evictOne` frees the room
 * by fair share across instances (two handlers on one in-memory store and bus), the instance
 * holding the evicted session closes it, and a request in flight on it is still answered.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Principal } from "@proto/jsonrpc";
import { createMemoryMessageBus, createMemorySessionStore } from "./memory-shared";
import type { SessionStore } from "./shared-store";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";

/** `Authorization: Bearer <subject>` is that subject. */
function authenticate(request: { headers: { get(name: string): string | null } }): Principal {
  const subject = (request.headers.get("authorization") ?? "Bearer anon").replace(/^Bearer /, "");
  return { subject, scopes: [], claims: { sub: subject } };
}

describe("eviction at maxSessions across handlers sharing a store", () => {
  const running: Running[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  async function pair(options: { maxSessions: number; evictWhenFull?: boolean; responseMode?: "sse" }, sessions: SessionStore = createMemorySessionStore()) {
    const servers = [createEchoServer(), createEchoServer()] as const;
    const bus = createMemoryMessageBus();
    const [a, b] = [await serve({ connect: servers[0].connect, shared: { sessions, bus }, authenticate, ...options }), await serve({ connect: servers[1].connect, shared: { sessions, bus }, authenticate, ...options })];
    running.push(a, b);
    return { a, b, servers };
  }
  const headers = (subject: string, sid?: string): Record<string, string> => ({
    ...POST_HEADERS,
    authorization: `Bearer ${subject}`,
    "mcp-protocol-version": "2025-11-25",
    ...(sid === undefined ? {} : { "mcp-session-id": sid }),
  });
  async function open(url: string, subject: string): Promise<string> {
    const response = await fetch(url, { method: "POST", headers: headers(subject), body: initBody() });
    expect(response.status).toBe(200);
    await response.text();
    return response.headers.get("mcp-session-id") ?? "";
  }
  async function ping(url: string, subject: string, sid: string): Promise<number> {
    const response = await fetch(url, { method: "POST", headers: headers(subject, sid), body: rpc(1, "ping") });
    await response.text();
    return response.status;
  }

  it("the biggest holder loses its least recently used session; its holder closes it; the newcomer gets a session", async () => {
    const { a, b } = await pair({ maxSessions: 3 });
    const oldest = await open(b.url, "flood");
    const stream = await fetch(b.url, { method: "GET", headers: { accept: "text/event-stream", authorization: "Bearer flood", "mcp-session-id": oldest, "mcp-protocol-version": "2025-11-25" } });
    expect(stream.status).toBe(200);
    const alice = await open(a.url, "alice"); // older than `newer`, but alice is not the biggest holder
    const newer = await open(a.url, "flood");
    const carol = await open(a.url, "carol");
    await readEvents(stream); // ends: B closed the evicted session it held
    expect(await ping(a.url, "flood", oldest)).toBe(404);
    expect(await ping(b.url, "flood", newer)).toBe(200);
    expect(await ping(b.url, "alice", alice)).toBe(200);
    expect(await ping(b.url, "carol", carol)).toBe(200);
    expect(await open(b.url, "flood")).not.toBe("");
  });

  it("a session with a request in flight is not closed by its eviction: the request is answered, the next one is 404", async () => {
    const { a, b, servers } = await pair({ maxSessions: 2, responseMode: "sse" }); // the head leaves while the tool waits
    const busy = await open(a.url, "flood");
    const other = await open(a.url, "flood");
    const answer = await fetch(a.url, { method: "POST", headers: headers("flood", busy), body: rpc(7, "tools/call", { name: "ticks", arguments: { count: 1 } }) });
    expect(answer.status).toBe(200);
    expect(await ping(b.url, "flood", other)).toBe(200);
    console.log("B"); // `busy` is now flood's least recently used
    await open(b.url, "carol");
    servers[0].gate.release();
    const messages = (await readEvents(answer)).filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as { id?: number; result?: unknown });
    expect(messages.at(-1)).toMatchObject({ id: 7, result: { content: [{ text: "ticked 1" }] } });
    expect(await ping(a.url, "flood", busy)).toBe(404);
  });

  it("stays 503 with evictWhenFull: false, and with a store that has no evictOne, each saying why", async () => {
    const off = await pair({ maxSessions: 1, evictWhenFull: false });
    await open(off.a.url, "flood");
    const refused = await fetch(off.b.url, { method: "POST", headers: headers("carol"), body: initBody() });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.text()).toMatch(/maxSessions 1\) and eviction is off \(evictWhenFull: false\)/);
    const { evictOne: _unused, ...plain } = createMemorySessionStore();
    const without = await pair({ maxSessions: 1 }, plain);
    await open(without.a.url, "flood");
    const refusedToo = await fetch(without.b.url, { method: "POST", headers: headers("carol"), body: initBody() });
    expect(refusedToo.status).toBe(503);
    expect(await refusedToo.text()).toMatch(/cannot evict \(it has no evictOne\)/);
  });
});
