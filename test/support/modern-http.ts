/**
 * Raw 2026-07-28 Streamable HTTP for tests: one POST with the envelope and the standard
 * headers, its answer read as JSON or as the messages of its SSE stream.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";

/** The envelope of a modern request with these client capabilities. */
export function envelope(caps: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): { _meta: Record<string, unknown> } {
  return { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps, ...extra } };
}

/** What one POST got back. */
export interface PostAnswer {
  readonly status: number;
  readonly headers: Headers;
  /** Every JSON-RPC message of the answer (one for JSON, the stream's for SSE). */
  readonly messages: readonly Record<string, unknown>[];
  /** The last message (the response). */
  readonly last: Record<string, unknown> | undefined;
}

/** The standard headers a client mirrors for `method` and `params` (override or drop any with `headers`). */
export function standardHeaders(method: string, params: Record<string, unknown> | undefined): Record<string, string> {
  const headers: Record<string, string> = { "mcp-protocol-version": "2026-07-28", "mcp-method": method };
  const name = method === "resources/read" ? params?.uri : method === "tools/call" || method === "prompts/get" ? params?.name : undefined;
  if (typeof name === "string") headers["mcp-name"] = name;
  return headers;
}

/** POSTs `body` with the standard headers of its method (for a single request), adjusted by `headers` (`null` drops one). */
export async function post(url: string, body: unknown, headers: Record<string, string | null> = {}): Promise<PostAnswer> {
  const single = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { method?: string; params?: Record<string, unknown> }) : undefined;
  const merged: Record<string, string | null> = {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(single?.method === undefined ? {} : standardHeaders(single.method, single.params)),
    ...headers,
  };
  const sent: Record<string, string> = {};
  for (const [k, v] of Object.entries(merged)) if (v !== null) sent[k] = v;
  const res = await fetch(url, { method: "POST", headers: sent, body: typeof body === "string" ? body : JSON.stringify(body) });
  const text = await res.text();
  const type = res.headers.get("content-type") ?? "";
  let messages: Record<string, unknown>[] = [];
  if (type.includes("text/event-stream")) {
    messages = text
      .split(/\n/)
      .filter((line) => line.startsWith("data:") && line.length > 5)
      .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
  } else if (text !== "") messages = [JSON.parse(text) as Record<string, unknown>];
  return { status: res.status, headers: res.headers, messages, last: messages.at(-1) };
}

/** A request message. */
export function request(id: number | string, method: string, params?: Record<string, unknown>): JsonRpcMessage {
  return (params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params }) as JsonRpcMessage;
}
