/**
 * The request headers of the 2026-07-28 Streamable HTTP wire (basic/transports/streamable-http,
 * "Request Metadata"): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-{Name}`,
 * and the value encoding they share: plain when the value is safe visible ASCII, else
 * `=?base64?{UTF-8 as Base64}?=`.
 */
import type { JsonRpcRequest } from "@proto/jsonrpc";
import { HttpHeader } from "../shared/headers";

/** Header names of the modern wire, lower-cased as `Headers` reports them. */
export const ModernHeader = {
  /** The request's method, equal to the body's `method`. */
  Method: "mcp-method",
  /** `params.name` of `tools/call` and `prompts/get`, `params.uri` of `resources/read`. */
  Name: "mcp-name",
  /** The prefix of the headers mirrored from `x-mcp-header` tool parameters. */
  ParamPrefix: "mcp-param-",
} as const;

/** The `_meta` key whose presence makes a request modern (the "claim"). */
const CLAIM = "io.modelcontextprotocol/protocolVersion";

const NAME_SOURCE: { readonly [method: string]: "name" | "uri" } = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/** The protocol version a request claims in `params._meta`, when it carries a string claim. */
export function modernClaim(message: JsonRpcRequest): string | undefined {
  const params = message.params;
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const version = (meta as { [key: string]: unknown })[CLAIM];
  return typeof version === "string" ? version : undefined;
}

/** True when a value cannot travel as a plain header value: non-ASCII, control characters, edge whitespace, or the sentinel shape. */
function needsEncoding(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return true;
  }
  if (value !== value.trim()) return true;
  return value.startsWith("=?base64?") && value.endsWith("?=");
}

function base64Utf8(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** Encodes one header value as the spec says ("Value Encoding"). */
export function encodeHeaderValue(value: string): string {
  return needsEncoding(value) ? `=?base64?${base64Utf8(value)}?=` : value;
}

/** The standard headers of a modern request: version, method and, where the method has one, name. */
export function standardHeaders(message: JsonRpcRequest, version: string): Record<string, string> {
  const headers: Record<string, string> = { [HttpHeader.ProtocolVersion]: version, [ModernHeader.Method]: message.method };
  const source = NAME_SOURCE[message.method];
  const params = message.params as { readonly [key: string]: unknown } | undefined;
  const name = source === undefined ? undefined : params?.[source];
  if (typeof name === "string") headers[ModernHeader.Name] = encodeHeaderValue(name);
  return headers;
}
