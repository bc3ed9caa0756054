/**
 * @proto/mcp-server: an MCP 2025-11-25 server. One definition (tools, resources, prompts,
 * extensions) serves any number of isolated sessions over any `Transport`.
 */
// Server, sessions, request context
export { createServer } from "./server";
export type { Server, CoreServer, ServerInfo, ServerOptions, ServerSummary, StatelessOptions } from "./server-types";
export type { RequestStateKey, RequestStateOptions } from "./stateless/request-state";
export type { CacheOptions } from "./stateless/encode";
export type { ServerSession, ConnectOptions } from "./session-types";
export type { SessionPersistence, SessionSnapshot } from "./session-shared";
export type { ListenFanout } from "./stateless/fanout";
export type { BaseRequestContext, RequestContext } from "./context";
export type { FeatureContext } from "./context-features";
export type { FeatureApi } from "./builtin-features";

// Tools
export type {
  ToolDefinition,
  LazyToolDefinition,
  ToolHandler,
  ToolHandle,
  ToolContext,
  ToolReturn,
  ToolOutputSchema,
  ToolInputSchemaLike,
  ToolOutputSchemaLike,
  ToolArgs,
  ToolSurface,
} from "./tool-types";
export type { FromSchema } from "./schema-types";
export type {
  StandardJsonSchema,
  StandardJsonSchemaProps,
  StandardJsonSchemaOptions,
  StandardSchemaIssue,
  StandardSchemaResult,
  StandardTypes,
  InferInput,
  InferOutput,
} from "./standard-schema";
export type { JsonSchemaValidator } from "./validation";
export { TOOL_ERROR_META_KEY } from "./tool-call";
export { ProtocolError } from "./protocol-error";
export { isInputRoundEnd } from "./stateless/input-rounds";
export { ServerFaultCode } from "./fault-codes";
export type { UnauthenticatedScopes } from "./tool-call";
export type { ArgumentError, ArgumentErrorReason, ToolArgumentsErrorDetails } from "./validation-report";
export { isCallToolResult, toCallToolResult } from "./tool-result";

// Tasks (2025-11-25 and the io.modelcontextprotocol/tasks extension)
export { createMemoryTaskStore, TASK_STORE_FULL } from "./tasks/memory-store";
export type { MemoryTaskStoreOptions } from "./tasks/memory-store";
export { LEASE_LOST_ERROR } from "./tasks/store";
export type { TaskStore, TaskRecord, TaskPatch, TaskUpdate, TaskPage, TaskResponses } from "./tasks/store";
export type { ClientTaskOption } from "./tasks/client-task";
export type { TasksOptions } from "./tasks/options";

// Extensions
export type {
  ServerExtension,
  ListItems,
  DecorateContext,
  ListDecorator,
  ExtensionMethodHandler,
  ExtensionInterceptor,
  ExtensionHost,
  ServerRegistry,
  RegistryEntry,
} from "./extension";
export type { ListKind, ListSpec, ListEndpoint } from "./list-endpoint";
export type { NegotiatedExtensions } from "./extension-negotiate";

// Pagination helpers
export { paginate, createPageSource, encodeCursor, decodeCursor } from "./pagination";
export type { Page, PageSource } from "./pagination";

// Resources and URI templates
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
export { createUriTemplate, isUriTemplate } from "./uri-template/template";
export type { UriTemplate, UriTemplateOptions } from "./uri-template/template";
export { createUriTemplateRouter } from "./uri-template/router";
export type { UriTemplateRouter, UriTemplateRoute } from "./uri-template/router";
export type { UriTemplateValue, UriTemplateVariables, UriTemplateScalar } from "./uri-template/expand";
export type { UriTemplateMatchValue, UriTemplateMatchVariables } from "./uri-template/decode";

// Prompts and completions
export type {
  PromptDefinition,
  PromptArgumentDefinition,
  PromptArgumentsLike,
  PromptArgs,
  PromptHandler,
  PromptHandle,
  PromptMessageInput,
  PromptReturn,
} from "./prompts/types";
export type { CompletionReturn, CompletionContext, Completer, Completers } from "./completions/types";

// Requests to the client
export { ClientRequestFault, MalformedResultError } from "./client-requests/types";
export { createMissingCapabilityError } from "./client-requests/capabilities";
export type { ClientRequestOptions } from "./client-requests/types";
export type {
  ElicitationSchema,
  ElicitationSchemaLike,
  ElicitationResult,
  ElicitedContent,
  ElicitedContentOf,
  ElicitedValue,
  FormElicitation,
  UrlElicitation,
  UrlElicitationResult,
} from "./client-requests/elicitation-types";
export type { ListRootsOptions } from "./client-requests/roots";
