/**
 * @proto/mcp-gateway: one MCP server in front of many. Children (stdio commands, Streamable
 * HTTP or legacy SSE servers, any transport) are reached with `@proto/mcp-client`; their
 * tools and prompts are exposed as `<child>__<name>`, their resources under namespaced URIs,
 * MCP Apps views routed through. Runtime-neutral: stdio children, config files, the registry
 * and the CLI live in `@proto/mcp-gateway/node`.
 */
export { createGateway, GATEWAY_EXTENSION_ID } from "./gateway";
export type { Gateway, ChildStatus } from "./gateway-types";
export type {
  GatewayOptions,
  ChildConfig,
  ChildCommonConfig,
  StdioChildConfig,
  RemoteChildConfig,
  TransportChildConfig,
  RemoteAuth,
  NameFilter,
  RestartOptions,
  StdioSpawner,
} from "./types";
export type { ChildState } from "./child";
export type { Catalog, ToolEntry, PromptEntry, ResourceEntry, TemplateEntry } from "./catalog";
export { exposeNames, isGatewayChildName } from "./naming";
export type { NameStyle } from "./naming";
export { GatewayFaultCode, GatewayErrorCode, GATEWAY_META_KEY } from "./errors";
export type { ChildFailure, FailureReason, FailureDetail } from "./errors";
export { parseExposedUri } from "./uris";
export { parseGatewayConfig, GatewayConfigError } from "./config";
export type { ConfigIssue } from "./config";
