/**
 * Capability checks before a request to the client: a server must not send a request the
 * client did not declare (MCP 2025-11-25, basic/lifecycle "Capability Negotiation").
 */
import { JsonRpcError } from "@proto/jsonrpc";
import { McpErrorCode } from "@proto/mcp-protocol";
import type { ClientCapabilities } from "@proto/mcp-protocol";

/**
 * The error for a request that needs a client capability the client did not declare: code
 * -32021 with `data.requiredCapabilities` (the 2026-07-28 `MissingRequiredClientCapabilityError`).
 * Thrown from a tool it becomes a tool error with this message; from any other handler it
 * reaches the client as is.
 */
export function createMissingCapabilityError(required: ClientCapabilities, what: string): JsonRpcError {
  const names = Object.keys(required).join(", ");
  return new JsonRpcError(
    McpErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability "${names}", which this client did not declare (at initialize, or in this request's clientCapabilities); ` +
      `use a client that supports it, or check ctx.clientCapabilities first and fall back`,
    { requiredCapabilities: required },
  );
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
