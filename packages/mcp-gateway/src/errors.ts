/**
 * Child failures, in one shape wherever they surface (the reference's repair data): an
 * `isError` tool result for `tools/call` (the details under `_meta["dev.proto/gateway"]`, not
 * in `structuredContent`, which the tool's `outputSchema` may bind), JSON-RPC error data
 * elsewhere. Unknown names and URIs are -32602 with the candidates.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { CallToolResult } from "@proto/mcp-protocol";

/** The `_meta` key of gateway details on tool results. */
export const GATEWAY_META_KEY = "dev.proto/gateway";

/** Stable string codes of the gateway: its wire errors' `data.code` (the reference's `M-*` identities) and its local faults. */
export const GatewayFaultCode = {
  /** A tool, prompt or resource the gateway does not route (-32602, with `candidates`). */
  UnknownName: "M-GW-002",
  /** A child failed while serving a request. */
  ChildFailed: "M-GW-004",
  /** A `ui://` URI that is no view of any child (-32602). */
  UnknownView: "M-UI-002",
  /** A child failed while serving a view. */
  ViewFailed: "M-UI-004",
  /** A config file failed validation (`GatewayConfigError`, with every problem in `issues`). */
  ConfigInvalid: "CONFIG_INVALID",
} as const;

/** One of `GatewayFaultCode`. */
export type GatewayFaultCode = (typeof GatewayFaultCode)[keyof typeof GatewayFaultCode];

/** @deprecated Renamed `GatewayFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const GatewayErrorCode = GatewayFaultCode;
/** @deprecated Renamed `GatewayFaultCode`. */
export type GatewayErrorCode = GatewayFaultCode;

/** Why a child failed. */
export type FailureReason = "disconnect" | "timeout" | "parse" | "unavailable" | "auth";

/** What is known about a failure. */
export interface FailureDetail {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly stderrTail?: readonly string[];
  readonly errno?: string;
  readonly status?: number;
  readonly elapsedMs?: number;
  readonly timeoutMs?: number;
  readonly attempt?: number;
  readonly cause?: string;
}

/** The data of every child failure. */
export interface ChildFailure {
  readonly code: typeof GatewayFaultCode.ChildFailed | typeof GatewayFaultCode.ViewFailed;
  readonly child: string;
  readonly reason: FailureReason;
  readonly method: string;
  readonly tool?: string;
  readonly uri?: string;
  readonly retryable: boolean;
  readonly detail: FailureDetail;
  /** One sentence: what to do. */
  readonly repair: string;
}

function message(failure: ChildFailure): string {
  const what = failure.tool !== undefined ? `tool "${failure.tool}"` : failure.uri !== undefined ? `"${failure.uri}"` : failure.method;
  return `Child server "${failure.child}" failed (${failure.reason}) on ${what}: ${failure.repair}`;
}

/** The `tools/call` answer for a failure: an `isError` result whose text says what to do. */
export function failureResult(failure: ChildFailure): CallToolResult {
  return { content: [{ type: "text", text: message(failure) }], isError: true, _meta: { [GATEWAY_META_KEY]: { ...failure } } };
}

/** The JSON-RPC error for a failure outside `tools/call` (-32603 with the failure as `data`). */
export function failureError(failure: ChildFailure): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InternalError, message(failure), { ...failure });
}

/** -32602 for a name or URI nobody serves, with what could have been meant. */
export function unknownError(kind: "tool" | "prompt" | "resource", name: string, candidates: readonly string[], ambiguous: boolean): JsonRpcError {
  const ui = kind === "resource" && name.toLowerCase().startsWith("ui://");
  const code = ui ? GatewayFaultCode.UnknownView : GatewayFaultCode.UnknownName;
  const shown = name.length > 200 ? `${name.slice(0, 200)}...` : name;
  const text = ambiguous
    ? `Ambiguous ${kind} "${shown}": several child servers have it; call one of ${candidates.join(", ")}`
    : `Unknown ${kind}: ${shown}; list again (${kind === "resource" ? "resources/list" : `${kind}s/list`}) for the names this gateway serves`;
  const repair = ambiguous ? `use the namespaced name: ${candidates.join(" or ")}` : "list again: the child may have removed it, or it is filtered out";
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, text, { code, [kind]: name, candidates: [...candidates], repair });
}

/**
 * -32601 for a child's request (sampling, elicitation, roots) that cannot be told apart: the
 * child speaks a 2025-11-25 session, whose requests do not say which call they belong to,
 * `calls` of its calls are in flight, and the upstream has no session to send it on (2026-07-28
 * asks only inside the request of that call).
 */
export function ambiguousRequest(child: string, method: string, calls: number): JsonRpcError {
  return new JsonRpcError(
    JsonRpcErrorCode.MethodNotFound,
    `Child "${child}" sent ${method} while ${calls} calls to it were in flight; its requests do not say which call they belong to, ` +
      "and those calls came from different upstream clients or from 2026-07-28 requests (asked only within their call), so it cannot be relayed. " +
      'If the child serves 2026-07-28, set its protocol: "2026-07-28" (its requests then travel with their call); else call it one call at a time (or set sessions: "isolated" for 2025-11-25 clients)',
    { child, method, calls },
  );
}
