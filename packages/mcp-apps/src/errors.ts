/**
 * The wire errors of MCP Apps serving. Each carries a stable string `data.code` and a
 * `data.repair` that says what to do.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import { McpErrorCode } from "@proto/mcp-protocol";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";

/** Stable codes in `error.data.code`. */
export const AppsFaultCode = {
  /** A `ui://` read or subscribe from a session that did not negotiate the extension (-32602). */
  NotNegotiated: "UI_NOT_NEGOTIATED",
  /** `tools/list` refused: a tool links to a view that is not registered, or its `_meta.ui` is malformed (-32603). */
  BrokenLink: "UI_BROKEN_LINK",
  /** A `ui://` resource that was not registered through `apps.resource()` (-32002). */
  NotRegistered: "UI_NOT_REGISTERED",
} as const;

/** One of `AppsFaultCode`. */
export type AppsFaultCode = (typeof AppsFaultCode)[keyof typeof AppsFaultCode];

/** @deprecated Renamed `AppsFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const AppsErrorCode = AppsFaultCode;
/** @deprecated Renamed `AppsFaultCode`. */
export type AppsErrorCode = AppsFaultCode;

/** A tool whose UI link cannot be served, with how to repair it. */
export interface LinkProblem {
  readonly tool: string;
  /** The linked URI (undefined when the metadata names none). */
  readonly resourceUri: string | undefined;
  readonly problem: string;
  readonly repair: string;
}

/** The error a session that did not negotiate MCP Apps gets for a `ui://` resource. */
export function createNotNegotiatedError(uri: string, method: string): JsonRpcError {
  const repair = `Declare capabilities.extensions["${UI_EXTENSION_ID}"] = { mimeTypes: ["${UI_MIME_TYPE}"] } in initialize to use MCP Apps views.`;
  return new JsonRpcError(
    JsonRpcErrorCode.InvalidParams,
    `${method} of ${uri.slice(0, 200)}: this is an MCP Apps view and this session did not negotiate the ${UI_EXTENSION_ID} extension`,
    { code: AppsFaultCode.NotNegotiated, uri, extension: UI_EXTENSION_ID, mimeTypes: [UI_MIME_TYPE], repair },
  );
}

/** The not-found error for a `ui://` URI that no `apps.resource()` registered. */
export function createNotRegisteredError(uri: string): JsonRpcError {
  return new JsonRpcError(McpErrorCode.ResourceNotFound, `Resource not found: ${uri.slice(0, 200)}`, {
    uri,
    code: AppsFaultCode.NotRegistered,
    repair: "ui:// is reserved for MCP Apps views: register the view with apps.resource() from @proto/mcp-apps.",
  });
}

/** The `tools/list` error for links that cannot be served; `data` names every tool, URI and repair. */
export function createBrokenLinkError(problems: readonly LinkProblem[]): JsonRpcError {
  const first = problems[0] as LinkProblem;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more in data.links)` : "";
  return new JsonRpcError(JsonRpcErrorCode.InternalError, `tools/list: tool "${first.tool}" ${first.problem}${more}. ${first.repair}`, {
    code: AppsFaultCode.BrokenLink,
    tool: first.tool,
    resourceUri: first.resourceUri ?? null,
    repair: first.repair,
    links: problems.map((p) => ({ tool: p.tool, resourceUri: p.resourceUri ?? null, problem: p.problem, repair: p.repair })),
  });
}
