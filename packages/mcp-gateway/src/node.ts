/**
 * `@proto/mcp-gateway/node`: stdio children, config files, the registry and the
 * `proto-gateway` command line, for Node. Everything of the root entry is re-exported.
 */
export { createGateway, GATEWAY_EXTENSION_ID, exposeNames, isGatewayChildName, GatewayFaultCode, GatewayErrorCode, GATEWAY_META_KEY, parseExposedUri, parseGatewayConfig, GatewayConfigError } from "./index";
export type {
  Gateway,
  ChildStatus,
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
  ChildState,
  Catalog,
  NameStyle,
  ChildFailure,
  FailureReason,
  FailureDetail,
  ConfigIssue,
} from "./index";
export { createStdioSpawner } from "./stdio-spawner";
export type { NodeStdioSpawner } from "./stdio-spawner";
export { registryPath, readRegistry, registryChildren, installChild, uninstallChild } from "./registry";
export type { RegistryEntry, RegistryFile } from "./registry";
export { runCli, parseArgs } from "./cli-run";
export type { CliIo, CliArgs } from "./cli-run";
export { formatGatewayBanner } from "./cli-serve";
