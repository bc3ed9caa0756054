/**
 * @proto/mcp-client: an MCP 2025-11-25 client for hosts and agent runners. It talks to a
 * `Transport` from `@proto/jsonrpc`; pair it with `@proto/transport-stdio` or
 * `@proto/transport-http`. OAuth lives in `@proto/mcp-client/oauth`.
 */
export { createClient, connect } from "./client";
export type { Client, ClientOptions, CallToolOptions, ListAllOptions } from "./client-types";
export type { RequestOptions, ProgressUpdate } from "./request-options";
export type { ServerDetails } from "./session";
export type { ConnectionState, TransportFactory } from "./connection";
export type { ClientEvents, ConnectionEvents } from "./events";
export type { On } from "./emitter";
export type { ServerRequestContext, RootsLister, SamplingHandler, ElicitationHandler } from "./handler-types";
export { applyElicitationDefaults } from "./elicitation";
export { ClientFaultCode, ClientErrorCode, McpClientError, ToolCallError, isMcpClientError } from "./errors";
export { callTools } from "./call-tools";
export type { ToolCall, ToolCaller, CallToolsOptions, ToolCallOutcome } from "./call-tools";
export type { ClientObserver, ConnectEvent, RequestStartEvent, RequestEndEvent, RequestOutcome, NotificationEvent } from "./observer";
export { backoffDelay, retry, sleep } from "./backoff";
export type { BackoffOptions, RetryOptions } from "./backoff";
export { toOpenAiTools, toAnthropicTools, toProviderSchema } from "./llm-tools";
export type { OpenAiTool, AnthropicTool, ToolSet, LlmToolOptions, LlmTools } from "./llm-tools";
export { createToolNameMap, isValidToolName } from "./tool-names";
export type { ToolTarget, ToolNameOptions, ToolNameMap, ToolNameStyle } from "./tool-names";
export { pickCommonVersion } from "./handshake";
export { createEraMemory } from "./era";
export type { ProtocolChoice, EraMemory, EraVerdict } from "./era";
export { serverSupports } from "./capability-check";
export type { ToolTask, TaskInfo, TaskStatus, TaskEvents, CallToolAsTaskOptions, TaskClientOptions } from "./task-types";
