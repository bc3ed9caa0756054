/**
 * Capability checks before a request to the client: a server must not send a request the
 * client did not declare (MCP 2025-11-25, basic/lifecycle "Capability Negotiation").
 */
import { JsonRpcError } from "@proto/jsonrpc";
import { isModernProtocolVersion, McpErrorCode } from "@proto/mcp-protocol";
import type { ClientCapabilities } from "@proto/mcp-protocol";
import { ProtocolError } from "../protocol-error";
import type { ClientTarget } from "./types";

function message(required: ClientCapabilities, what: string): string {
  const names = Object.keys(required).join(", ");
  return (
    `${what} needs the client capability "${names}", which this client did not declare (at initialize, or in this request's clientCapabilities); ` +
    `use a client that supports it, or check ctx.clientCapabilities first and fall back`
  );
}

/**
 * The error for a request that needs a client capability the client did not declare: code
 * -32021 with `data.requiredCapabilities` (the 2026-07-28 `MissingRequiredClientCapabilityError`),
 * as a `ProtocolError`: thrown from any handler, a tool's included, it is the request's answer.
 */
export function createMissingCapabilityError(required: ClientCapabilities, what: string): ProtocolError {
  return new ProtocolError(McpErrorCode.MissingRequiredClientCapability, message(required, what), { requiredCapabilities: required });
}

/**
 * What `ctx.sample`, `ctx.elicit`, `ctx.listRoots` (and the session API) reject with when the
 * client lacks `required`. Under 2026-07-28 the spec makes it the request's answer, so it is the
 * `ProtocolError` above. Under 2025-11-25, which has no such error, it is a plain `JsonRpcError`
 * with the same code, message and data: a tool that lets it escape fails with an `isError` result
 * (its text says which capability is missing), other handlers answer with it as is.
 */
export function missingCapability(target: ClientTarget, required: ClientCapabilities, what: string): JsonRpcError {
  if (isModernProtocolVersion(target.protocolVersion)) return createMissingCapabilityError(required, what);
  return new JsonRpcError(McpErrorCode.MissingRequiredClientCapability, message(required, what), { requiredCapabilities: required });
}

/** True when the client accepts form-mode elicitation (`elicitation: {}` means form only). */
export function supportsFormElicitation(caps: ClientCapabilities): boolean {
  const e = caps.elicitation;
  if (e === undefined || e === null || typeof e !== "object") return false;
  return e.form !== undefined || e.url === undefined;
}

/** True when the client accepts URL-mode elicitation. */
export function supportsUrlElicitation(caps: ClientCapabilities): boolean {
  return typeof caps.elicitation?.url === "object" && caps.elicitation.url !== null;
}
