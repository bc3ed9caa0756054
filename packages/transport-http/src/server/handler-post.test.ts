import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import type { EchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc } from "./testing/net";
import { startTarget } from "./testing/targets";
import type { AdapterKind, Target } from "./testing/targets";
import type { NodeHttpHandlerOptions } from "./node-adapter";

const kinds: AdapterKind[] = ["node", "web"];

describe.each(kinds)("POST rules (%s adapter)", (kind) => {
  let target: Target | undefined;
  let echo: EchoServer;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}): Promise<Target> {
    echo = createEchoServer();
    target = await startTarget(kind, { connect: echo.connect, ...options });
    return target;
  }

  async function post(t: Target, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return t.fetch(t.url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body });
  }

  async function session(t: Target): Promise<Record<string, string>> {
    const response = await post(t, initBody());
    await response.text();
    return { "mcp-session-id": response.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
  }

  it("initialize answers JSON with a 128-bit session id", async () => {
    const t = await start();
    const response = await post(t, initBody(1));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(response.headers.get("mcp-session-id")).toMatch(/^[0-9a-f]{32}$/);
    const body = (await response.json()) as { id: number; result: { protocolVersion: string } };
    expect(body).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
  });

  it("refuses a POST whose Accept does not list both types (406), accepts wildcards", async () => {
    const t = await start();
    for (const accept of ["application/json", "text/event-stream", "text/html", "application/json, text/event-stream;q=0"]) {
      const response = await post(t, initBody(), { accept });
      expect(response.status, accept).toBe(406);
    }
    expect((await post(t, initBody(), { accept: "*/*" })).status).toBe(200);
  });

  it("refuses a body that is not application/json (415)", async () => {
    const t = await start();
    expect((await post(t, initBody(), { "content-type": "text/plain" })).status).toBe(415);
  });

  it("answers unparseable JSON with 400 and a parse error", async () => {
    const t = await start();
    const response = await post(t, "{nope");
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } });
  });

  it("answers notifications and responses with 202 and no body", async () => {
    const t = await start();
    const headers = await session(t);
    const note = await post(t, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers);
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
    const answer = await post(t, JSON.stringify({ jsonrpc: "2.0", id: 99, result: {} }), headers);
    expect(answer.status).toBe(202);
  });

  it("requires the session id (400) and refuses unknown ones (404)", async () => {
    const t = await start();
    await session(t);
    expect((await post(t, rpc(1, "ping"))).status).toBe(400);
    const unknown = await post(t, rpc(1, "ping"), { "mcp-session-id": "0".repeat(32) });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: -32001, data: { code: "SESSION_NOT_FOUND" } } });
  });

  it("refuses initialize that carries a session id", async () => {
    const t = await start();
    const headers = await session(t);
    expect((await post(t, initBody(), headers)).status).toBe(400);
  });

  it("refuses an unsupported MCP-Protocol-Version (400) and assumes 2025-03-26 when absent", async () => {
    const t = await start();
    const headers = await session(t);
    const bad = await post(t, rpc(1, "ping"), { ...headers, "mcp-protocol-version": "1999-01-01" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("2025-11-25");
    const { "mcp-protocol-version": _, ...noVersion } = headers;
    const ok = await post(t, rpc(2, "ping"), noVersion);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 2, result: {} });
  });

  it("answers JSON when the handler sends nothing before its response (auto)", async () => {
    const t = await start();
    const headers = await session(t);
    const response = await post(t, rpc(1, "tools/call", { name: "echo", arguments: { text: "hi" } }), headers);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ text: "hi" }] } });
  });

  it("switches to SSE when the handler sends related messages first (auto), in order", async () => {
    const t = await start();
    const headers = await session(t);
    const response = await post(t, rpc(7, "tools/call", { name: "chatty", arguments: { count: 3 } }), headers);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await readEvents(response);
    const messages = events.map((event) => JSON.parse(event.data) as { id?: number; method?: string; params?: { data: string } });
    expect(messages.map((m) => m.params?.data ?? m.id)).toEqual(["line 0", "line 1", "line 2", 7]);
    expect(events.every((event) => event.id === undefined)).toBe(true); // no event store: no ids, no priming
  });

  it("always streams in sse mode and never in json mode", async () => {
    let t = await start({ responseMode: "sse" });
    let headers = await session(t);
    let response = await post(t, rpc(1, "ping"), headers);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect((await readEvents(response)).map((e) => JSON.parse(e.data))).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
    await t.close();

    t = await start({ responseMode: "json" });
    headers = await session(t);
    response = await post(t, rpc(2, "tools/call", { name: "chatty", arguments: { count: 2 } }), headers);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toMatchObject({ id: 2, result: { content: [{ text: "sent 2" }] } });
    // the related messages waited for the standalone stream
    const get = await t.fetch(t.url, { headers: { accept: "text/event-stream", ...headers } });
    const queued = await readEvents(get, (_e, all) => all.length === 2);
    expect(queued.map((e) => (JSON.parse(e.data) as { params: { data: string } }).params.data)).toEqual(["line 0", "line 1"]);
  });

  it("accepts batches only under 2025-03-26 and answers them with one array", async () => {
    const t = await start();
    const headers = await session(t);
    const batch = `[${rpc(1, "ping")},${rpc(2, "echo", { x: 1 })},{"jsonrpc":"2.0","id":3}]`;
    expect((await post(t, batch, headers)).status).toBe(400);
    const init = await post(t, initBody(0, "2025-03-26"));
    await init.text();
    const old = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-03-26" };
    const response = await post(t, batch, old);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number | null; error?: { code: number } }[];
    expect(body).toHaveLength(3);
    expect(body.filter((m) => m.id === 1 || m.id === 2)).toHaveLength(2);
    expect(body.filter((m) => m.error?.code === -32600)).toHaveLength(1);
  });

  it("refuses initialize inside a batch", async () => {
    const t = await start();
    const response = await post(t, `[${initBody(1)}]`, { "mcp-protocol-version": "2025-03-26" });
    expect(response.status).toBe(400);
  });

  it("DELETE ends the session: 204, then 404", async () => {
    const t = await start();
    const headers = await session(t);
    expect(t.sessionCount).toBe(1);
    const deleted = await t.fetch(t.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(204);
    expect(t.sessionCount).toBe(0);
    expect((await post(t, rpc(1, "ping"), headers)).status).toBe(404);
    expect((await echo.peers[0]?.closed)?.message).toContain("DELETE");
  });

  it("answers 405 for other methods", async () => {
    const t = await start();
    const response = await t.fetch(t.url, { method: "PUT", body: "x" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST, DELETE");
  });

  it("answers a body over maxMessageBytes with 413, before parsing", async () => {
    const t = await start({ maxMessageBytes: 1024 });
    const headers = await session(t);
    const response = await post(t, rpc(1, "echo", { pad: "x".repeat(2048) }), headers);
    expect(response.status).toBe(413);
  });

  it("ends the POST of a cancelled request (nothing to answer) and aborts its handler", async () => {
    const t = await start();
    const headers = await session(t);
    const pending = post(t, rpc(5, "tools/call", { name: "wait" }), headers);
    await expect.poll(() => echo.calls.length).toBe(1);
    const cancel = await post(t, JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5 } }), headers);
    expect(cancel.status).toBe(202);
    const response = await pending;
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
    expect(echo.aborted).toHaveLength(1);
  });

  it("sends no CORS header unless configured", async () => {
    const t = await start();
    const response = await post(t, initBody(), { origin: "http://localhost:5173" });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect((await t.fetch(t.url, { method: "OPTIONS", headers: { origin: "http://localhost:5173" } })).status).toBe(405);
  });

  it("answers preflights and exposes the session header for configured origins", async () => {
    const t = await start({ cors: { origins: ["http://localhost:5173"] } });
    const preflight = await t.fetch(t.url, { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "POST" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("mcp-session-id");
    const response = await post(t, initBody(), { origin: "http://localhost:5173" });
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    const other = await t.fetch(t.url, { method: "OPTIONS", headers: { origin: "http://localhost:9999", "access-control-request-method": "POST" } });
    expect(other.status).toBe(403);
  });
});
