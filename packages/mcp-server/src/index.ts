/**
 * @proto/mcp-server: an MCP 2025-11-25 server. One definition (tools, resources, prompts,
 * extensions) serves any number of isolated sessions over any `Transport`.
 */
export { createServer } from "./server";
export type { Server, CoreServer, ServerInfo, ServerOptions, ServerSummary } from "./server-types";
export type { ServerSession, ConnectOptions } from "./session-types";
export type { BaseRequestContext, RequestContext } from "./context";
export type { FeatureContext } from "./context-features";
export type { FeatureApi } from "./builtin-features";
export type {
  ToolDefinition,
  LazyToolDefinition,
  ToolHandler,
  ToolHandle,
  ToolContext,
  ToolReturn,
  ToolOutputSchema,
  ToolSurface,
} from "./tool-types";
export type { FromSchema } from "./schema-types";
export { TOOL_ERROR_META_KEY } from "./tool-call";
export type { UnauthenticatedScopes } from "./tool-call";
export type { ArgumentError, ArgumentErrorReason, ToolArgumentsErrorDetails } from "./validation-report";
export type {
  ServerExtension,
  ListItems,
  DecorateContext,
  ListDecorator,
  ExtensionMethodHandler,
  ExtensionInterceptor,
} from "./extension";
export type { ListKind, ListSpec, ListEndpoint } from "./list-endpoint";
export type { Page } from "./pagination";
export { paginate, createPageSource, encodeCursor, decodeCursor } from "./pagination";
export type { PageSource } from "./pagination";
export { isCallToolResult, toCallToolResult } from "./tool-result";
// Features: resources, prompts, completions, logging, progress, client requests, URI templates.
export type {
  ResourceDefinition,
  ResourceReader,
  ResourceTemplateDefinition,
  ResourceTemplateReader,
  ResourceHandle,
  ResourceTemplateHandle,
  TemplateVariables,
  TemplateVariableNames,
} from "./resources/types";
export type { ResourceContentInput, ResourceReadReturn } from "./resources/contents";
export type {
  PromptDefinition,
  PromptArgumentDefinition,
  PromptArgs,
  PromptHandler,
  PromptHandle,
  PromptMessageInput,
  PromptReturn,
} from "./prompts/types";
export { MAX_COMPLETION_VALUES } from "./completions/completions";
export type { Completer, Completers, CompletionContext, CompletionReturn } from "./completions/types";
export { isLoggingLevel } from "./logging/logging";
export { createMissingCapabilityError } from "./client-requests/capabilities";
export { ClientRequestFault, MalformedResultError } from "./client-requests/types";
export type { ClientRequestOptions } from "./client-requests/types";
export type { ListRootsOptions } from "./client-requests/roots";
export type {
  ElicitationSchema,
  ElicitationResult,
  ElicitedContent,
  ElicitedValue,
  FormElicitation,
  UrlElicitation,
  UrlElicitationResult,
} from "./client-requests/elicitation-types";
export { createUriTemplate, isUriTemplate } from "./uri-template/template";
export type { UriTemplate } from "./uri-template/template";
export { createUriTemplateRouter } from "./uri-template/router";
export type { UriTemplateRouter, UriTemplateRoute } from "./uri-template/router";
export type { UriTemplateScalar, UriTemplateValue, UriTemplateVariables } from "./uri-template/expand";
export type { UriTemplateMatchValue, UriTemplateMatchVariables } from "./uri-template/decode";
