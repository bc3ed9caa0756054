import { describe, expect, it } from "vitest";
import { JsonRpcError, createPeer } from "@proto/jsonrpc";
import { mcpCancellation } from "@proto/mcp-protocol";
import type { FetchLike, HttpClientEvent } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive } from "./testing/drive";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

interface Seen {
  readonly headers: Headers;
  readonly body: { id: unknown; method: string; params?: unknown };
  readonly signal: AbortSignal | undefined;
}

/** A fake modern server: `answer` returns the Response for each POST. */
function fakeFetch(answer: (seen: Seen) => Response | Promise<Response>): { fetch: FetchLike; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (_url, init) => {
    const entry = { headers: new Headers(init.headers), body: JSON.parse(String(init.body)) as Seen["body"], signal: init.signal ?? undefined };
    seen.push(entry);
    return answer(entry);
  };
  return { fetch, seen };
}

const json = (body: unknown, status = 200): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const TOOLS = [
  { name: "weather", inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" }, days: { type: "integer", "x-mcp-header": "Days" }, loose: { type: "number" } } } },
  { name: "broken", inputSchema: { type: "object", properties: { score: { type: "number", "x-mcp-header": "Score" } } } },
  { name: "nested", inputSchema: { type: "object", properties: { list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } } } } },
];

function server(): { fetch: FetchLike; seen: Seen[] } {
  return fakeFetch(({ body }) => {
    if (body.method === "tools/list") return json({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", ttlMs: 0, cacheScope: "public", tools: TOOLS } });
    if (body.method === "prompts/get") return json({ jsonrpc: "2.0", id: body.id, error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested: "x" } } }, 400);
    if (body.method === "never") return new Promise<Response>(() => {});
    return json({ jsonrpc: "2.0", id: body.id, result: { resultType: "complete", content: [] } });
  });
}

describe("the 2026-07-28 wire of the Streamable HTTP client", () => {
  it("sends MCP-Protocol-Version, Mcp-Method and an encoded Mcp-Name, and no session header", async () => {
    const { fetch, seen } = server();
    const { peer } = await drive(createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch }));
    await peer.request("tools/call", { name: "métée", arguments: {}, _meta: META });
    const headers = seen[0]?.headers;
    expect(headers?.get("mcp-protocol-version")).toBe("2026-07-28");
    expect(headers?.get("mcp-method")).toBe("tools/call");
    expect(headers?.get("mcp-name")).toBe(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode("métée")))}?=`);
    expect(headers?.has("mcp-session-id")).toBe(false);
    await peer.close();
  });

  it("drops tools with an invalid x-mcp-header, reports them, and mirrors the valid bindings of later calls", async () => {
    const { fetch, seen } = server();
    const events: HttpClientEvent[] = [];
    const { peer } = await drive(createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch, onEvent: (e) => events.push(e) }));
    const listed = (await peer.request("tools/list", { _meta: META })) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(["weather"]);
    expect(events.filter((e) => e.type === "tool-rejected").map((e) => (e as { tool: string }).tool)).toEqual(["broken", "nested"]);
    await peer.request("tools/call", { name: "weather", arguments: { region: " 東京 ", days: 3, loose: 1.5 }, _meta: META });
    const call = seen.at(-1)?.headers;
    expect(call?.get("mcp-param-region")).toBe(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(" 東京 ")))}?=`);
    expect(call?.get("mcp-param-days")).toBe("3");
    const names: string[] = [];
    call?.forEach((_value, name) => names.push(name));
    expect(names.filter((k) => k.startsWith("mcp-param-")).sort()).toEqual(["mcp-param-days", "mcp-param-region"]);
    await peer.request("tools/call", { name: "weather", arguments: { region: null }, _meta: META });
    expect(seen.at(-1)?.headers.has("mcp-param-region")).toBe(false);
    await peer.close();
  });

  it("an error status with a JSON-RPC body is the request's answer", async () => {
    const { fetch } = server();
    const { peer } = await drive(createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch }));
    const error = await peer.request("prompts/get", { name: "p", _meta: META }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32022);
    expect((error as JsonRpcError).data).toMatchObject({ supported: ["2026-07-28"] });
    await peer.close();
  });

  it("cancelling a modern request aborts its POST and sends nothing", async () => {
    const { fetch, seen } = server();
    const peer = createPeer(createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch }), { cancellation: mcpCancellation });
    await peer.start();
    const aborter = new AbortController();
    const pending = peer.request("never", { _meta: META }, { signal: aborter.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 10));
    aborter.abort();
    await pending;
    expect(seen).toHaveLength(1);
    expect(seen[0]?.signal?.aborted).toBe(true);
    await peer.close();
  });

  it("closing the transport aborts every modern POST in flight", async () => {
    const { fetch, seen } = server();
    const peer = createPeer(createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch }), { cancellation: mcpCancellation });
    await peer.start();
    const pending = [1, 2, 3].map(() => peer.request("never", { _meta: META }).catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toHaveLength(3);
    expect(seen.some((s) => s.signal?.aborted)).toBe(false);
    await peer.close();
    await Promise.all(pending);
    expect(seen.every((s) => s.signal?.aborted === true)).toBe(true);
  });
});
