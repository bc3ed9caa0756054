/**
 * The dual-era ladder of a Streamable HTTP POST (MCP 2026-07-28 basic/transports/streamable-http
 * "Standard MCP Request Headers", "Server Validation"; the order of the checklist's ladder): a
 * request whose `params._meta` has the protocol claim is modern whatever its method, and is
 * checked here, before any session exists: the envelope (400/-32602), `MCP-Protocol-Version`
 * and `Mcp-Method` against the body (400/-32020), the version (400/-32022), then the required
 * headers and `Mcp-Name` (400/-32020). A request without a claim under a modern header is
 * 400/-32602; everything else is the 2025 session era, served as before.
 */
import { isNotification, isRequest, isResponse, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcFailure, JsonRpcId, JsonRpcMessage, JsonRpcRequest } from "@proto/jsonrpc";
import {
  createHeaderMismatchError,
  createUnsupportedVersionError,
  decodeHeaderValue,
  hasProtocolClaim,
  isModernProtocolVersion,
  McpErrorCode,
  McpHttpHeader,
  MODERN_PROTOCOL_VERSIONS,
  nameHeaderSource,
  parseRequestEnvelope,
  requiresNameHeader,
} from "@proto/mcp-protocol";
import type { HttpIn } from "./io";

/** How one POST is served. */
export type PostVerdict =
  | { readonly kind: "legacy" }
  | { readonly kind: "modern"; readonly request: JsonRpcRequest }
  | { readonly kind: "modern-notification" }
  | { readonly kind: "refused"; readonly status: number; readonly body: JsonRpcFailure };

const LEGACY: PostVerdict = Object.freeze({ kind: "legacy" });

function refused(status: number, id: JsonRpcId | null, error: JsonRpcError): PostVerdict {
  const body: JsonRpcFailure = {
    jsonrpc: "2.0",
    id,
    error: error.data === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, data: error.data },
  };
  return { kind: "refused", status, body };
}

function claimed(message: JsonRpcMessage): boolean {
  return (isRequest(message) || isNotification(message)) && hasProtocolClaim(message.params);
}

/** True when `MCP-Protocol-Version` names a stateless revision (GET and DELETE are then 405). */
export function hasModernHeader(input: HttpIn): boolean {
  return isModernProtocolVersion(input.header(McpHttpHeader.ProtocolVersion));
}

function checkHeaders(request: JsonRpcRequest, input: HttpIn): PostVerdict {
  let version: string;
  try {
    version = parseRequestEnvelope(request.params).protocolVersion;
  } catch (error) {
    return refused(400, request.id, JsonRpcError.from(error));
  }
  const headerVersion = input.header(McpHttpHeader.ProtocolVersion);
  const headerMethod = input.header(McpHttpHeader.Method);
  if (headerVersion !== undefined && headerVersion !== version) {
    return refused(400, request.id, createHeaderMismatchError(`MCP-Protocol-Version "${headerVersion.slice(0, 64)}" does not match the body's version "${version.slice(0, 64)}"`));
  }
  if (headerMethod !== undefined && headerMethod !== request.method) {
    return refused(400, request.id, createHeaderMismatchError(`Mcp-Method "${headerMethod.slice(0, 64)}" does not match the body's method "${request.method.slice(0, 64)}"`));
  }
  if (!isModernProtocolVersion(version)) return refused(400, request.id, createUnsupportedVersionError(version, MODERN_PROTOCOL_VERSIONS));
  if (headerVersion === undefined) return refused(400, request.id, createHeaderMismatchError("MCP-Protocol-Version is required on every request"));
  if (headerMethod === undefined) return refused(400, request.id, createHeaderMismatchError("Mcp-Method is required on every request"));
  if (requiresNameHeader(request.method)) {
    const raw = input.header(McpHttpHeader.Name);
    if (raw === undefined) return refused(400, request.id, createHeaderMismatchError(`Mcp-Name is required on ${request.method}`));
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) return refused(400, request.id, createHeaderMismatchError("Mcp-Name has invalid characters or encoding"));
    if (decoded !== nameHeaderSource(request.method, request.params)) {
      return refused(400, request.id, createHeaderMismatchError(`Mcp-Name "${decoded.slice(0, 64)}" does not match the body`));
    }
  }
  return { kind: "modern", request };
}

/** Classifies a decoded POST frame. */
export function classifyPost(messages: readonly JsonRpcMessage[], batch: boolean, input: HttpIn): PostVerdict {
  if (batch) {
    if (messages.some(claimed)) return refused(400, null, new JsonRpcError(McpErrorCode.InvalidRequest, "Invalid Request: a 2026-07-28 request is sent alone, one per POST, never in a batch"));
    return LEGACY;
  }
  const message = messages[0];
  if (message === undefined || isResponse(message)) return LEGACY;
  if (isRequest(message)) {
    if (hasProtocolClaim(message.params)) return checkHeaders(message, input);
    if (hasModernHeader(input)) {
      return refused(400, message.id, new JsonRpcError(McpErrorCode.InvalidParams, `Invalid params: a request under MCP-Protocol-Version ${input.header(McpHttpHeader.ProtocolVersion)} carries its protocol context in params._meta`));
    }
    return LEGACY;
  }
  return hasModernHeader(input) ? { kind: "modern-notification" } : LEGACY;
}

/** The HTTP status of a modern answer: 404 for -32601, 400 for the header, capability and version errors, else 200. */
export function modernStatus(message: JsonRpcMessage): number {
  if (!isResponse(message) || !("error" in message)) return 200;
  const code = message.error.code;
  if (code === McpErrorCode.MethodNotFound) return 404;
  if (code === McpErrorCode.HeaderMismatch || code === McpErrorCode.MissingRequiredClientCapability || code === McpErrorCode.UnsupportedProtocolVersion) return 400;
  return 200;
}
