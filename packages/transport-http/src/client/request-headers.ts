/**
 * The standard request headers of the 2026-07-28 Streamable HTTP wire (basic/transports/
 * streamable-http, "Request Metadata"): `MCP-Protocol-Version`, `Mcp-Method` and, where the
 * method has one, `Mcp-Name`, encoded as `@proto/mcp-protocol` says.
 */
import type { JsonRpcRequest } from "@proto/jsonrpc";
import { McpHttpHeader, MetaKey, encodeHeaderValue, nameHeaderSource } from "@proto/mcp-protocol";

/** The protocol version a request claims in `params._meta`, when it carries a string claim (the modern wire). */
export function modernClaim(message: JsonRpcRequest): string | undefined {
  const params = message.params;
  if (typeof params !== "object" || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== "object" || meta === null) return undefined;
  const version = (meta as { readonly [key: string]: unknown })[MetaKey.ProtocolVersion];
  return typeof version === "string" ? version : undefined;
}

/** The standard headers of a modern request. */
export function standardHeaders(message: JsonRpcRequest, version: string): Record<string, string> {
  const headers: Record<string, string> = { [McpHttpHeader.ProtocolVersion]: version, [McpHttpHeader.Method]: message.method };
  const name = nameHeaderSource(message.method, message.params);
  if (name !== undefined) headers[McpHttpHeader.Name] = encodeHeaderValue(name);
  return headers;
}
