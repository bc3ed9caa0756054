/**
 * The MCP cancellation protocol for `createPeer` (MCP 2025-11-25, basic/utilities/cancellation):
 * `notifications/cancelled` with `{ requestId, reason }`.
 */
import type { CancellationProtocol, JsonRpcParams } from "@proto/jsonrpc";

function field(params: JsonRpcParams | undefined, name: string): unknown {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Record<string, unknown>)[name] : undefined;
}

const protocol: CancellationProtocol = {
  method: "notifications/cancelled",
  params(id, reason) {
    return reason === undefined ? { requestId: id } : { requestId: id, reason };
  },
  requestId(params) {
    const id = field(params, "requestId");
    return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : undefined;
  },
  reason(params) {
    const reason = field(params, "reason");
    return typeof reason === "string" ? reason.slice(0, 1024) : undefined;
  },
};

/** Pass as `createPeer(transport, { cancellation: mcpCancellation })` on both MCP sides. */
export const mcpCancellation: CancellationProtocol = Object.freeze(protocol);
