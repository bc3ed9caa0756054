/**
 * @proto/mcp-apps: the MCP Apps extension (`io.modelcontextprotocol/ui`, SEP-1865, stable
 * 2026-01-26) for `@proto/mcp-server`: `ui://` views, tool links, negotiation gating and link
 * integrity; gateway URI namespacing and message rewriting. Runtime-neutral and light (no
 * client code): `verify` lives in `@proto/mcp-apps/verify`, module and stdio verification in
 * `@proto/mcp-apps/node`, the `proto-apps` command line in the package's bin.
 */
// Names of the extension
export { UI_EXTENSION_ID, UI_MIME_TYPE, UI_SCHEME, UI_META_KEY, LEGACY_RESOURCE_URI_KEY, isUiUri } from "./constants";
export type { UiVisibility, UiToolMeta, UiResourceCsp, UiPermissionRequest, UiResourcePermissions, UiResourceMeta, UiClientSettings } from "./types";

// Serving views
export { createApps } from "./apps";
export type { AppsOptions, McpApps, UiResourceDefinition, UiResourceBody, UiResourceReader, UiResourceHandle, UiToolLink } from "./apps-types";
export type { LinkReport, ToolLink } from "./links";
export { AppsFaultCode, AppsErrorCode } from "./errors";
export type { LinkProblem } from "./errors";

// Metadata checks
export { checkUiResourceMeta } from "./meta";
export { readToolUi, withoutUiMeta } from "./tool-meta";
export type { ToolUi } from "./tool-meta";
export type { MetaProblems } from "./meta";
export { isCspSource } from "./csp";
export { isHtmlDocument } from "./html";

// Gateways
export { toGatewayUri, fromGatewayUri, isGatewayUri, isGatewayName, isChildName } from "./gateway-uri";
export type { GatewayUriParts } from "./gateway-uri";
export {
  createGatewayUriMap,
  rewriteToolsList,
  rewriteResourcesList,
  rewriteReadParams,
  rewriteReadResult,
  rewriteToolResult,
  rewriteUiResult,
  rewriteUiParams,
  rewriteUiMessage,
  dropUiDomain,
} from "./rewrite";
export type { UriMap, GatewayUriMap } from "./rewrite";
