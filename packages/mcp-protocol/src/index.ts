/**
 * @proto/mcp-protocol: MCP 2025-11-25 and 2026-07-28 types, versions and negotiation, method
 * names, error codes, `_meta` key rules, the per-request envelope and the Streamable HTTP
 * header rules, shared by servers, clients and transports.
 */
export {
  ProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  isSupportedProtocolVersion,
  negotiateVersion,
  allowsBatches,
  compareVersions,
  MODERN_PROTOCOL_VERSIONS,
  LATEST_MODERN_PROTOCOL_VERSION,
  isModernProtocolVersion,
} from "./versions";
export { RequestMethod, NotificationMethod, LOGGING_LEVELS, REMOVED_MODERN_METHODS, REMOVED_MODERN_TASK_METHODS, INPUT_REQUIRED_METHODS } from "./methods";
export { hasProtocolClaim, parseRequestEnvelope } from "./envelope";
export type { RequestEnvelope } from "./envelope";
export {
  McpHttpHeader,
  X_MCP_HEADER,
  encodeHeaderValue,
  decodeHeaderValue,
  nameHeaderSource,
  requiresNameHeader,
  headerParamsOf,
  headerParamText,
} from "./http-headers";
export type { HeaderParam, HeaderParamsOf } from "./http-headers";
export {
  McpErrorCode,
  createUnsupportedVersionError,
  isUnsupportedVersionError,
  unsupportedVersionData,
  createResourceNotFoundError,
  createUrlElicitationRequiredError,
  createHeaderMismatchError,
  createMissingCapabilityError,
} from "./errors";
export type { UnsupportedVersionData, MissingCapabilityData } from "./errors";
export { mcpCancellation } from "./cancellation";
export { MetaKey, parseMetaKey, isValidMetaKey, isReservedMetaKey } from "./meta";
export type { MetaKeyParts } from "./meta";
export type {
  JsonValue,
  JsonArray,
  JsonObject,
  Meta,
  RequestId,
  ProgressToken,
  Cursor,
  RequestMeta,
  RequestParams,
  NotificationParams,
  Result,
  EmptyResult,
  PaginatedRequestParams,
  PaginatedResult,
  Role,
  Annotations,
  Icon,
  Icons,
  BaseMetadata,
  Implementation,
} from "./types/base";
export type {
  TextContent,
  ImageContent,
  AudioContent,
  ResourceContents,
  TextResourceContents,
  BlobResourceContents,
  EmbeddedResource,
  ResourceLink,
  ContentBlock,
  ToolUseContent,
  ToolResultContent,
  SamplingMessageContentBlock,
} from "./types/content";
export type { OpenCapability, ClientCapabilities, ServerCapabilities } from "./types/capabilities";
export type {
  InitializeRequestParams,
  InitializeResult,
  DiscoverRequestParams,
  DiscoverResult,
  PingRequestParams,
  InitializedNotificationParams,
  CancelledNotificationParams,
  ProgressNotificationParams,
} from "./types/lifecycle";
export type {
  JsonSchemaObject,
  ToolInputSchema,
  ToolAnnotations,
  ToolExecution,
  Tool,
  ListToolsRequestParams,
  ListToolsResult,
  CallToolRequestParams,
  CallToolResult,
  ToolListChangedNotificationParams,
} from "./types/tools";
export type {
  Resource,
  ResourceTemplate,
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ResourceRequestParams,
  ReadResourceRequestParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
} from "./types/resources";
export type {
  PromptArgument,
  Prompt,
  PromptMessage,
  ListPromptsRequestParams,
  ListPromptsResult,
  GetPromptRequestParams,
  GetPromptResult,
} from "./types/prompts";
export type { PromptReference, ResourceTemplateReference, CompleteRequestParams, CompleteResult } from "./types/completion";
export type { LoggingLevel, SetLevelRequestParams, LoggingMessageNotificationParams } from "./types/logging";
export type {
  ModelHint,
  ModelPreferences,
  SamplingMessage,
  ToolChoice,
  CreateMessageRequestParams,
  CreateMessageResult,
} from "./types/sampling";
export type {
  StringSchema,
  NumberSchema,
  BooleanSchema,
  UntitledSingleSelectEnumSchema,
  TitledSingleSelectEnumSchema,
  UntitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchema,
  LegacyTitledEnumSchema,
  EnumSchema,
  PrimitiveSchemaDefinition,
  ElicitRequestFormParams,
  ElicitRequestURLParams,
  ElicitRequestParams,
  ElicitResult,
  ElicitationCompleteNotificationParams,
} from "./types/elicitation";
export type { Root, ListRootsRequestParams, ListRootsResult } from "./types/roots";
export type {
  TaskMetadata,
  RelatedTaskMetadata,
  TaskStatus,
  Task,
  CreateTaskResult,
  TaskIdParams,
  GetTaskResult,
  GetTaskPayloadResult,
  ListTasksRequestParams,
  ListTasksResult,
  TaskStatusNotificationParams,
} from "./types/tasks";
export { TASKS_EXTENSION, TASK_RESULT_TYPE } from "./types/tasks-extension";
export type {
  ModernTask,
  WorkingTask,
  InputRequiredTask,
  CompletedTask,
  FailedTask,
  CancelledTask,
  DetailedTask,
  ModernCreateTaskResult,
  ModernGetTaskResult,
  UpdateTaskRequestParams,
  TaskNotificationParams,
  TasksExtensionRequestMap,
  TasksExtensionNotificationMap,
} from "./types/tasks-extension";
export { ResultType } from "./types/stateless";
export type {
  CacheScope,
  CacheHints,
  ModernRequestMeta,
  ModernResultFields,
  InputRequest,
  InputRequests,
  InputResponse,
  InputResponses,
  InputRequiredResult,
  InputResponseRequestParams,
  SubscriptionFilter,
  SubscriptionsListenRequestParams,
  SubscriptionsAcknowledgedNotificationParams,
  SubscriptionsListenResult,
} from "./types/stateless";
export type {
  ClientRequestMap,
  ServerRequestMap,
  ClientNotificationMap,
  ServerNotificationMap,
  ClientRequestMethod,
  ServerRequestMethod,
  ClientNotificationMethod,
  ServerNotificationMethod,
  ClientRequest,
  ServerRequest,
  ClientNotification,
  ServerNotification,
  ServerResult,
  ClientResult,
} from "./types/messages";
