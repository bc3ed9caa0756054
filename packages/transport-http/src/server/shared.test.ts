import { afterEach, describe, expect, it } from "vitest";
import { createMemoryMessageBus, createMemorySessionStore } from "./memory-shared";
import type { MessageBus, SessionStore } from "./shared-store";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";

describe("the shared option: two handlers, one session store and bus (in memory)", () => {
  const running: Running[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  async function pair(sessions: SessionStore = createMemorySessionStore(), bus: MessageBus = createMemoryMessageBus(), limits = {}) {
    for (let i = 0; i < 2; i += 1) running.push(await serve({ connect: createEchoServer().connect, shared: { sessions, bus }, ...limits }));
    return { a: running[0] as Running, b: running[1] as Running, sessions };
  }

  const call = (url: string, sid: string, body: string) => fetch(url, { method: "POST", headers: { ...POST_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" }, body });

  it("a session opened on one handler is served by the other, and DELETE ends it on both", async () => {
    const { a, b } = await pair();
    const sid = (await fetch(a.url, { method: "POST", headers: POST_HEADERS, body: initBody() })).headers.get("mcp-session-id") ?? "";
    const answer = await call(b.url, sid, rpc(1, "ping"));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect((await fetch(b.url, { method: "DELETE", headers: { "mcp-session-id": sid } })).status).toBe(204);
    const after = await call(a.url, sid, rpc(2, "ping"));
    expect(after.status).toBe(404);
  });

  it("caps apply across handlers: maxSessions counts the sessions of both (without eviction: shared-evict.test.ts)", async () => {
    const { a, b } = await pair(undefined, undefined, { maxSessions: 1, evictWhenFull: false });
    expect((await fetch(a.url, { method: "POST", headers: POST_HEADERS, body: initBody() })).status).toBe(200);
    const refused = await fetch(b.url, { method: "POST", headers: POST_HEADERS, body: initBody() });
    expect(refused.status).toBe(503);
  });

  it("a store that throws is answered 503 with Retry-After and a message naming the cause", async () => {
    const failing: SessionStore = {
      create: () => Promise.reject(new Error("connection refused")),
      get: () => Promise.reject(new Error("connection refused")),
      update: () => undefined,
      delete: () => undefined,
      members: () => Promise.reject(new Error("connection refused")),
    };
    const { a } = await pair(failing);
    const init = await fetch(a.url, { method: "POST", headers: POST_HEADERS, body: initBody() });
    expect(init.status).toBe(503);
    expect(init.headers.get("retry-after")).toBe("1");
    expect(await init.text()).toMatch(/shared session store is unavailable \(connection refused\)/);
    const request = await call(a.url, "0123456789abcdef0123456789abcdef", rpc(1, "ping"));
    expect(request.status).toBe(503);
  });

  it("refuses shared with stateless, and a shared option without its parts", async () => {
    const sessions = createMemorySessionStore();
    const bus = createMemoryMessageBus();
    await expect(serve({ connect: createEchoServer().connect, stateless: true, shared: { sessions, bus } })).rejects.toThrow(/exclude each other/);
    await expect(serve({ connect: createEchoServer().connect, shared: { sessions } as never })).rejects.toThrow(/SessionStore, bus: MessageBus/);
  });
});
