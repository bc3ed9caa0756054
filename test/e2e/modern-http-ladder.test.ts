/**
 * The 2026-07-28 Streamable HTTP ladder against one @proto server definition that also serves
 * 2025 sessions on the same endpoint: every rung answers its status and JSON-RPC error with the
 * request's id, headers that disagree with the body are refused in every field, no session is
 * minted, and the 2025 session goes on untouched between modern requests.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { envelope, post, request } from "../support/modern-http";

const server = createServer({ name: "ladder", version: "1.0.0" });
server.tool(
  {
    name: "query",
    inputSchema: {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" }, limit: { type: "integer", "x-mcp-header": "Limit" }, text: { type: "string" } },
    },
  },
  (args) => `ok ${String(args.region)} ${String(args.limit)}`,
);
server.tool({ name: "needs-sampling", inputSchema: { type: "object" } }, async (_a, ctx) => {
  await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 });
  return "sampled";
});
server.prompt({ name: "brief" }, () => "brief");
server.resource({ uri: "file:///é.txt", name: "accented" }, () => ({ contents: [{ uri: "file:///é.txt", text: "é" }] }));

let url = "";
let stop: () => Promise<void> = async () => {};
beforeAll(async () => {
  const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t, c) => server.connect(t, c.sessionId === undefined ? {} : { sessionId: c.sessionId }) }));
  url = `http://127.0.0.1:${await listenLoopback(listener)}/mcp`;
  stop = async () => (await closeHttp(listener), await server.close());
});
afterAll(() => stop());

const call = (id: number, args: Record<string, unknown>) => request(id, "tools/call", { name: "query", arguments: args, ...envelope() });
const errorOf = (a: { last: Record<string, unknown> | undefined }) => a.last?.error as { code: number; data?: unknown } | undefined;

describe("the modern ladder over HTTP", () => {
  it("serves a 2025 session and modern requests interleaved on one endpoint", async () => {
    const init = await post(url, request(0, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } }), { "mcp-method": null, "mcp-protocol-version": null });
    const sid = init.headers.get("mcp-session-id");
    expect(sid).toBeTruthy();
    const legacyHeaders = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25", "mcp-method": null };
    await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, legacyHeaders);
    const modern = await post(url, request(1, "tools/list", envelope()));
    expect(modern.status).toBe(200);
    expect(modern.headers.get("mcp-session-id")).toBeNull();
    expect(modern.last?.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    const legacy = await post(url, request(2, "tools/list"), legacyHeaders);
    expect(legacy.last?.result).not.toHaveProperty("resultType");
    expect((legacy.last?.result as { tools: unknown[] }).tools).toHaveLength(2);
  });
  it("answers GET and DELETE under a modern header with 405 Allow: POST", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(url, { method, headers: { "mcp-protocol-version": "2026-07-28", accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });
  it("refuses each rung with its status, code and the request's id", async () => {
    const cases: [string, unknown, Record<string, string | null>, number, number][] = [
      ["batch with a claim", [request(1, "tools/list", envelope()), request(2, "tools/list", envelope())], {}, 400, -32600],
      ["no claim under a modern header", request(3, "tools/list", {}), { "mcp-method": "tools/list" }, 400, -32602],
      ["no clientCapabilities", request(4, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } }), {}, 400, -32602],
      ["bad clientInfo", request(5, "tools/list", envelope({}, { "io.modelcontextprotocol/clientInfo": { name: 1 } })), {}, 400, -32602],
      ["header version differs", request(6, "tools/list", envelope()), { "mcp-protocol-version": "2025-11-25" }, 400, -32020],
      ["Mcp-Method differs", request(7, "tools/list", envelope()), { "mcp-method": "tools/call" }, 400, -32020],
      ["unsupported version", request(8, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "v999.0.0", "io.modelcontextprotocol/clientCapabilities": {} } }), { "mcp-protocol-version": "v999.0.0" }, 400, -32022],
      ["no MCP-Protocol-Version", request(9, "tools/list", envelope()), { "mcp-protocol-version": null }, 400, -32020],
      ["no Mcp-Method", request(10, "tools/list", envelope()), { "mcp-method": null }, 400, -32020],
      ["no Mcp-Name", call(11, {}), { "mcp-name": null }, 400, -32020],
      ["Mcp-Name differs", call(12, {}), { "mcp-name": "other" }, 400, -32020],
      ["Mcp-Name not decodable", call(13, {}), { "mcp-name": "=?base64?***?=" }, 400, -32020],
      ["prompt Mcp-Name differs", request(22, "prompts/get", { name: "brief", ...envelope() }), { "mcp-name": "other" }, 400, -32020],
      ["no prompt Mcp-Name", request(23, "prompts/get", { name: "brief", ...envelope() }), { "mcp-name": null }, 400, -32020],
      ["resource Mcp-Name differs", request(24, "resources/read", { uri: "file:///é.txt", ...envelope() }), { "mcp-name": "file:///e.txt" }, 400, -32020],
      ["no resource Mcp-Name", request(25, "resources/read", { uri: "file:///é.txt", ...envelope() }), { "mcp-name": null }, 400, -32020],
      ["unknown method", request(14, "nope/nothing", envelope()), { "mcp-method": "nope/nothing" }, 404, -32601],
      ["removed method", request(15, "ping", envelope()), { "mcp-method": "ping" }, 404, -32601],
      ["undeclared capability", request(16, "tools/call", { name: "needs-sampling", ...envelope() }), {}, 400, -32021],
      ["Mcp-Param missing", call(17, { region: "eu" }), {}, 400, -32020],
      ["Mcp-Param differs", call(18, { region: "eu" }), { "mcp-param-region": "us" }, 400, -32020],
      ["Mcp-Param for an absent value", call(19, {}), { "mcp-param-region": "eu" }, 400, -32020],
      ["Mcp-Param integer differs", call(20, { limit: 5 }), { "mcp-param-limit": "6" }, 400, -32020],
      ["Mcp-Param invalid characters", call(21, { region: "eu" }), { "mcp-param-region": "=?base64?%%?=" }, 400, -32020],
    ];
    for (const [what, body, headers, status, code] of cases) {
      const answer = await post(url, body, headers);
      expect([what, answer.status, errorOf(answer)?.code]).toEqual([what, status, code]);
      const id = Array.isArray(body) ? null : (body as { id: unknown }).id;
      expect([what, answer.last?.id]).toEqual([what, id]);
    }
  });
  it("accepts matching headers: encoded names, integers compared numerically", async () => {
    const ok = await post(url, call(30, { region: "eu", limit: 5, text: "x" }), { "mcp-param-region": "eu", "mcp-param-limit": "5.0" });
    expect([ok.status, ok.last?.result]).toMatchObject([200, { resultType: "complete", content: [{ type: "text", text: "ok eu 5" }] }]);
    const read = await post(url, request(31, "resources/read", { uri: "file:///é.txt", ...envelope() }), { "mcp-name": "=?base64?ZmlsZTovLy/DqS50eHQ=?=" });
    expect(read.last?.result).toMatchObject({ contents: [{ text: "é" }], ttlMs: 0, cacheScope: "private" });
    const missing = await post(url, request(32, "resources/read", { uri: "file:///nope", ...envelope() }));
    expect(errorOf(missing)).toMatchObject({ code: -32602, data: { uri: "file:///nope" } });
  });
  it("refuses a modern POST with a foreign Host (DNS rebinding) with 403, as it does a 2025 one", async () => {
    const body = JSON.stringify(request(50, "tools/list", envelope()));
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers: { host: "attacker.example", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" } }, (res) => (res.resume(), resolve(res.statusCode)));
      req.once("error", reject);
      req.end(body);
    });
    expect(status).toBe(403);
    expect((await post(url, request(51, "tools/list", envelope()))).status).toBe(200);
  });
  it("answers a notification with 202 and refuses a 10 MB requestState without reading it all", async () => {
    expect((await post(url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } }, { "mcp-protocol-version": "2026-07-28" })).status).toBe(202);
    const huge = await post(url, request(40, "tools/call", { name: "query", arguments: {}, requestState: "x".repeat(10 * 1024 * 1024), ...envelope() }));
    expect(huge.status).toBe(413);
  });
});
