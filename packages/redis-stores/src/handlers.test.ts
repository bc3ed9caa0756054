/**
 * Two Streamable HTTP handlers (two "instances" in one process) on one real redis-server through
 * `createRedisStores`: what a session record binds, enforced by the instance that did not open it
 * (issue 19, "Session TTL, caps and principal binding enforced across instances, as in one
 * process"; "log level ... client capabilities and info ... so any instance serves any request").
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@proto/jsonrpc";
import type { Daemon } from "../../../test/support/daemons";
import { missingDaemons, startRedis } from "../../../test/support/daemons";
import { createServer } from "../../mcp-server/src/server";
import type { NodeHttpHandlerOptions } from "../../transport-http/src/server/node-adapter";
import { POST_HEADERS, readEvents, rpc, serve } from "../../transport-http/src/server/testing/net";
import type { Running } from "../../transport-http/src/server/testing/net";
import { createRedisStores } from "./stores";
import type { RedisStores } from "./stores";

const missing = missingDaemons("redis-server");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function defer(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
/** The `slow` tool says when it began and returns once released. */
const slow = { began: defer(), release: defer() };

/** `Authorization: Bearer <subject>` is that subject; no header is the subject "anon". */
function authenticate(request: { headers: { get(name: string): string | null } }): Principal {
  const subject = (request.headers.get("authorization") ?? "Bearer anon").replace(/^Bearer /, "");
  return { subject, scopes: [], claims: { sub: subject } };
}

describe.skipIf(missing !== undefined)(`two handlers on one redis-server: the session record rules on both${missing === undefined ? "" : ` (${missing})`}`, () => {
  let redis: Daemon;
  const opened: (RedisStores | Running)[] = [];
  let prefix = 0;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  /** Two instances with one server definition, on one key prefix. */
  async function pair(options: Partial<NodeHttpHandlerOptions> = {}): Promise<[Running, Running]> {
    const keyPrefix = `h${++prefix}:`;
    const instances: Running[] = [];
    for (const name of ["a", "b"]) {
      const stores = await createRedisStores({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix, ...(options.sessionIdleTtlMs ? { sessionIdleTtlMs: options.sessionIdleTtlMs, ttlMs: options.sessionIdleTtlMs } : {}) });
      opened.push(stores);
      const server = createServer({ name: "h", version: "1" }, { stateless: { fanout: stores.fanout } });
      server.tool({ name: "who", inputSchema: { type: "object" } }, (_args, ctx) => JSON.stringify({ instance: name, client: ctx.clientInfo?.name, roots: ctx.clientCapabilities.roots !== undefined }));
      server.tool({ name: "slow", inputSchema: { type: "object" } }, async () => {
        slow.began.resolve();
        await slow.release.promise;
        return "slept";
      });
      server.tool({ name: "chatter", inputSchema: { type: "object" } }, async (_args, ctx) => {
        for (const level of ["debug", "info", "warning", "error"] as const) await ctx.log(level, `${level} from ${name}`);
        return "done";
      });
      const running = await serve({ connect: (transport, { sessionId, shared }) => server.connect(transport, { sessionId, ...(shared ? { shared } : {}) }), ...stores.handlerOptions, authenticate, ...options });
      opened.push(running);
      instances.push(running);
    }
    return instances as [Running, Running];
  }

  const headers = (sid: string | undefined, subject?: string): Record<string, string> => ({
    ...POST_HEADERS,
    "mcp-protocol-version": "2025-11-25",
    ...(sid === undefined ? {} : { "mcp-session-id": sid }),
    ...(subject === undefined ? {} : { authorization: `Bearer ${subject}` }),
  });
  async function open(url: string, subject?: string, capabilities: Record<string, unknown> = {}): Promise<string> {
    const response = await fetch(url, { method: "POST", headers: headers(undefined, subject), body: rpc(0, "initialize", { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: `client-of-${subject ?? "anon"}`, version: "1" } }) });
    expect(response.status).toBe(200);
    await response.text();
    const sid = response.headers.get("mcp-session-id") ?? "";
    await (await fetch(url, { method: "POST", headers: headers(sid, subject), body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
    return sid;
  }
  /** Every JSON-RPC message of one POST's answer (JSON or SSE). */
  async function call(url: string, sid: string, subject: string | undefined, id: number, method: string, params?: unknown): Promise<{ status: number; messages: Record<string, unknown>[] }> {
    const response = await fetch(url, { method: "POST", headers: headers(sid, subject), body: rpc(id, method, params) });
    if (response.status !== 200) return { status: response.status, messages: [{ body: await response.text() }] };
    if ((response.headers.get("content-type") ?? "").includes("application/json")) return { status: 200, messages: [(await response.json()) as Record<string, unknown>] };
    return { status: 200, messages: (await readEvents(response)).filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as Record<string, unknown>) };
  }
  const text = (messages: Record<string, unknown>[]): string => ((messages.at(-1)?.result as { content: { text: string }[] }).content[0] as { text: string }).text;

  it("a session opened by one principal on A is refused to another principal on B, served to its own", async () => {
    const [a, b] = await pair();
    const sid = await open(a.url, "alice");
    expect((await call(b.url, sid, "mallory", 1, "ping")).status).toBe(404);
    expect((await call(b.url, sid, undefined, 2, "ping")).status).toBe(404);
    expect((await call(a.url, sid, "mallory", 4, "ping")).status).toBe(404);
    const own = await call(b.url, sid, "alice", 3, "ping");
    expect(own).toEqual({ status: 200, messages: [{ jsonrpc: "2.0", id: 3, result: {} }] });
  });

  it("maxSessionsPerPrincipal counts one principal's sessions on both instances", async () => {
    const [a, b] = await pair({ maxSessionsPerPrincipal: 1, evictWhenFull: false });
    await open(a.url, "alice");
    const refused = await fetch(b.url, { method: "POST", headers: headers(undefined, "alice"), body: rpc(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } }) });
    expect(refused.status).toBe(429);
    await refused.text();
    await open(b.url, "bob");
  });

  it("maxSessions counts both instances; at the cap the biggest holder's least recently used session is evicted, wherever it lives", async () => {
    const [a, b] = await pair({ maxSessions: 3 });
    const oldest = await open(b.url, "flood");
    const alice = await open(a.url, "alice");
    const newer = await open(a.url, "flood");
    const carol = await open(a.url, "carol");
    expect((await call(a.url, oldest, "flood", 1, "ping")).status).toBe(404);
    for (const [sid, subject] of [[newer, "flood"], [alice, "alice"], [carol, "carol"]] as const) expect((await call(b.url, sid, subject, 2, "ping")).status).toBe(200);
    await open(b.url, "flood");
  });

  it("an evicted session with a request in flight answers it; the instance holding it closes it at its next request", async () => {
    const [a, b] = await pair({ maxSessions: 2 });
    const busy = await open(a.url, "flood");
    const other = await open(b.url, "flood");
    Object.assign(slow, { began: defer(), release: defer() });
    const answer = call(a.url, busy, "flood", 5, "tools/call", { name: "slow", arguments: {} });
    await slow.began.promise;
    expect((await call(b.url, other, "flood", 6, "ping")).status).toBe(200); // `busy` is now flood's least recently used
    await open(b.url, "carol");
    slow.release.resolve();
    expect(text((await answer).messages)).toBe("slept");
    expect((await call(a.url, busy, "flood", 7, "ping")).status).toBe(404);
    expect((await call(b.url, other, "flood", 8, "ping")).status).toBe(200);
  });

  it("at the cap with evictWhenFull: false initialize is 503 with Retry-After, saying eviction is off", async () => {
    const [a, b] = await pair({ maxSessions: 2, evictWhenFull: false });
    await open(a.url, "alice");
    await open(b.url, "bob");
    const refused = await fetch(a.url, { method: "POST", headers: headers(undefined, "carol"), body: rpc(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } }) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(await refused.text()).toMatch(/eviction is off/);
  });

  it("a session idle past sessionIdleTtlMs on A is gone on B; one kept busy through B lives on", async () => {
    const [a, b] = await pair({ sessionIdleTtlMs: 1_000 });
    const idle = await open(a.url);
    const busy = await open(a.url);
    // the busy session is touched every 250 ms, far inside its TTL; the idle one is left twice as long as its TTL
    for (let i = 0; i < 8; i += 1) {
      await sleep(250);
      expect((await call(b.url, busy, undefined, 10 + i, "ping")).status).toBe(200);
    }
    expect((await call(b.url, idle, undefined, 1, "ping")).status).toBe(404);
    expect((await call(a.url, busy, undefined, 20, "ping")).status).toBe(200);
  });

  it("client info, capabilities and the log level set on A rule the requests B serves", async () => {
    const [a, b] = await pair();
    const sid = await open(a.url, undefined, { roots: {} });
    expect(JSON.parse(text((await call(b.url, sid, undefined, 1, "tools/call", { name: "who", arguments: {} })).messages))).toEqual({ instance: "b", client: "client-of-anon", roots: true });
    expect((await call(a.url, sid, undefined, 2, "logging/setLevel", { level: "warning" })).status).toBe(200);
    const { messages } = await call(b.url, sid, undefined, 3, "tools/call", { name: "chatter", arguments: {} });
    const logged = messages.filter((m) => m.method === "notifications/message").map((m) => (m.params as { data: unknown }).data);
    expect(logged).toEqual(["warning from b", "error from b"]);
    expect(text(messages)).toBe("done");
  });
});
