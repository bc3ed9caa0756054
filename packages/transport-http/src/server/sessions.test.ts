import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import type { EchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { NodeHttpHandlerOptions } from "./node-adapter";

describe("session TTL and cap (real sockets, injected clock)", () => {
  let running: Running | undefined;
  let echo: EchoServer;
  let clock = 0;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}): Promise<Running> {
    clock = 1_000_000;
    echo = createEchoServer();
    running = await serve({ connect: echo.connect, now: () => clock, ...options });
    return running;
  }

  async function init(r: Running): Promise<Response> {
    return fetch(r.url, { method: "POST", headers: POST_HEADERS, body: initBody() });
  }

  async function ping(r: Running, sid: string): Promise<number> {
    const response = await fetch(r.url, { method: "POST", headers: { ...POST_HEADERS, "mcp-session-id": sid }, body: rpc(1, "ping") });
    await response.text();
    return response.status;
  }

  it("expires a session idle past its TTL: 404, and its server session is closed", async () => {
    const r = await start({ sessionIdleTtlMs: 60_000 });
    const sid = (await init(r)).headers.get("mcp-session-id") ?? "";
    clock += 59_000;
    expect(await ping(r, sid)).toBe(200); // use refreshes the idle timer
    clock += 59_000;
    expect(await ping(r, sid)).toBe(200);
    clock += 60_001;
    expect(await ping(r, sid)).toBe(404);
    expect((await echo.peers[0]?.closed)?.message).toContain("idle");
    expect(r.handler.sessionCount).toBe(0);
  });

  it("sweeps abandoned sessions without any request naming them", async () => {
    const r = await start({ sessionIdleTtlMs: 1_000 });
    for (let i = 0; i < 3; i += 1) await (await init(r)).text();
    expect(r.handler.sessionCount).toBe(3);
    clock += 1_001;
    expect(r.handler.sweep()).toBe(3);
    expect(r.handler.sessionCount).toBe(0);
    await Promise.all(echo.peers.map((peer) => peer.closed));
  });

  it("never expires a session while its stream is open", async () => {
    const r = await start({ sessionIdleTtlMs: 1_000 });
    const sid = (await init(r)).headers.get("mcp-session-id") ?? "";
    const get = await fetch(r.url, { headers: { accept: "text/event-stream", "mcp-session-id": sid } });
    expect(get.status).toBe(200);
    clock += 10_000;
    expect(r.handler.sweep()).toBe(0);
    await echo.peers[0]?.notify("notifications/tools/list_changed");
    const [event] = await readEvents(get, () => true);
    expect(event?.data).toContain("list_changed");
    expect(await ping(r, sid)).toBe(200);
  });

  it("caps live sessions: initialize beyond the cap is 503 until one ends or expires", async () => {
    const r = await start({ maxSessions: 2, sessionIdleTtlMs: 1_000, evictWhenFull: false });
    const first = (await init(r)).headers.get("mcp-session-id") ?? "";
    await (await init(r)).text();
    const refused = await init(r);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(echo.peers).toHaveLength(2); // no server session was started for the refused one
    await fetch(r.url, { method: "DELETE", headers: { "mcp-session-id": first } });
    expect((await init(r)).status).toBe(200);
    expect((await init(r)).status).toBe(503);
    clock += 1_001;
    expect((await init(r)).status).toBe(200); // the expired ones made room
  });

  it("closes every session when the handler closes", async () => {
    const r = await start();
    for (let i = 0; i < 3; i += 1) await (await init(r)).text();
    await r.handler.close();
    const reasons = await Promise.all(echo.peers.map((peer) => peer.closed));
    expect(reasons.every((reason) => reason?.message.includes("handler was closed"))).toBe(true);
    const after = await init(r);
    expect(after.status).toBe(503);
  });
});
