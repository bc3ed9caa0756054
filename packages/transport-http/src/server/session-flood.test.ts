import { request as httpRequest } from "node:http";
import type { IncomingMessage } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { anonymousHolder } from "./context";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";

/** The attacker connects from another loopback address, so the server sees two callers. */
const ATTACKER = "127.0.0.2";
const LEGIT = "127.0.0.1";

interface Reply {
  readonly status: number;
  readonly sid: string | undefined;
}

function post(port: number, from: string, body: string, sid?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...POST_HEADERS, host: `127.0.0.1:${port}`, "mcp-protocol-version": "2025-11-25" };
    if (sid !== undefined) headers["mcp-session-id"] = sid;
    const req = httpRequest({ host: "127.0.0.1", port, localAddress: from, method: "POST", path: "/mcp", headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, sid: res.headers["mcp-session-id"] as string | undefined }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** Opens and holds the standalone GET stream; resolves with the response once headers arrive. */
function hold(port: number, from: string, sid: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const headers = { accept: "text/event-stream", host: `127.0.0.1:${port}`, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    const req = httpRequest({ host: "127.0.0.1", port, localAddress: from, method: "GET", path: "/mcp", headers, agent: false }, (res) => {
      res.resume();
      resolve(res);
    });
    req.on("error", reject);
    req.end();
  });
}

/** One attacker session: initialize, then hold its GET stream open (a busy session never expires). */
async function attack(port: number): Promise<number> {
  const init = await post(port, ATTACKER, initBody());
  if (init.sid === undefined) return init.status;
  await post(port, ATTACKER, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), init.sid);
  const stream = await hold(port, ATTACKER, init.sid);
  return stream.statusCode ?? 0;
}

describe("session flood: an anonymous client filling maxSessions and holding GET streams", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("keeps serving a legitimate client: the flooder's own least recently used sessions make room", async () => {
    const maxSessions = 50;
    const echo = createEchoServer();
    running = await serve({ connect: echo.connect, maxSessions });
    const { port } = running;
    // the attacker fills the registry, every session holding its GET stream
    for (let round = 0; round < maxSessions; round += 10) {
      await Promise.all(Array.from({ length: 10 }, () => attack(port)));
    }
    expect(running.handler.sessionCount).toBe(maxSessions);

    const init = await post(port, LEGIT, initBody());
    expect(init.status).toBe(200);
    const sid = init.sid ?? "";
    const stream = await hold(port, LEGIT, sid);
    expect(stream.statusCode).toBe(200);
    // the flood goes on beside the legitimate client's calls: two more registries' worth
    const flood = Promise.all(Array.from({ length: 2 * maxSessions }, () => attack(port)));
    const calls: number[] = [];
    for (let i = 1; i <= 20; i += 1) calls.push((await post(port, LEGIT, rpc(i, "ping"), sid)).status);
    await flood;
    expect(calls.every((status) => status === 200)).toBe(true);
    expect(stream.complete).toBe(false); // the legitimate GET stream was never cut
    expect(running.handler.sessionCount).toBe(maxSessions);
    expect((await post(port, LEGIT, rpc(99, "ping"), sid)).status).toBe(200);
  });

  it("answers 503 at the cap with evictWhenFull: false (the former policy, kept as an option)", async () => {
    const echo = createEchoServer();
    running = await serve({ connect: echo.connect, maxSessions: 3, evictWhenFull: false });
    for (let i = 0; i < 3; i += 1) expect(await attack(running.port)).toBe(200);
    expect((await post(running.port, LEGIT, initBody())).status).toBe(503);
  });

  it("groups anonymous callers by IPv4 address and IPv6 /64", () => {
    expect(anonymousHolder("::ffff:10.0.0.1")).toBe(anonymousHolder("10.0.0.1"));
    expect(anonymousHolder("10.0.0.1")).not.toBe(anonymousHolder("10.0.0.2"));
    expect(anonymousHolder("2001:db8:1:2::5")).toBe(anonymousHolder("2001:db8:1:2:ffff::9"));
    expect(anonymousHolder("2001:db8:1:2::5")).not.toBe(anonymousHolder("2001:db8:1:3::5"));
    expect(anonymousHolder(undefined)).toBe("anonymous");
  });
});
