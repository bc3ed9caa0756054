/**
 * @proto/mcp-protocol: MCP 2025-11-25 types, versions and negotiation, method names,
 * error codes and `_meta` key rules, shared by servers, clients and transports.
 */
export {
  ProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  isSupportedProtocolVersion,
  negotiateVersion,
  allowsBatches,
  compareVersions,
} from "./versions";
export { RequestMethod, NotificationMethod, LOGGING_LEVELS } from "./methods";
export {
  McpErrorCode,
  createUnsupportedVersionError,
  isUnsupportedVersionError,
  unsupportedVersionData,
  createResourceNotFoundError,
  createUrlElicitationRequiredError,
} from "./errors";
export type { UnsupportedVersionData } from "./errors";
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
