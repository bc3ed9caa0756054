/**
 * Method maps: for every MCP method, its params and result types, by direction
 * (MCP 2025-11-25 schema: ClientRequest, ServerRequest, ClientNotification, ServerNotification).
 * Build typed `request`/`notify` helpers from them.
 */
import type { EmptyResult, NotificationParams } from "./base";
import type { CompleteRequestParams, CompleteResult } from "./completion";
import type { ElicitationCompleteNotificationParams, ElicitRequestParams, ElicitResult } from "./elicitation";
import type {
  CancelledNotificationParams,
  DiscoverRequestParams,
  DiscoverResult,
  InitializeRequestParams,
  InitializeResult,
  PingRequestParams,
  ProgressNotificationParams,
} from "./lifecycle";
import type { LoggingMessageNotificationParams, SetLevelRequestParams } from "./logging";
import type { GetPromptRequestParams, GetPromptResult, ListPromptsRequestParams, ListPromptsResult } from "./prompts";
import type {
  ListResourcesRequestParams,
  ListResourcesResult,
  ListResourceTemplatesRequestParams,
  ListResourceTemplatesResult,
  ReadResourceRequestParams,
  ReadResourceResult,
  ResourceUpdatedNotificationParams,
  SubscribeRequestParams,
  UnsubscribeRequestParams,
} from "./resources";
import type { ListRootsRequestParams, ListRootsResult } from "./roots";
import type { CreateMessageRequestParams, CreateMessageResult } from "./sampling";
import type {
  CreateTaskResult,
  GetTaskPayloadResult,
  GetTaskResult,
  ListTasksRequestParams,
  ListTasksResult,
  TaskIdParams,
  TaskStatusNotificationParams,
} from "./tasks";
import type { CallToolRequestParams, CallToolResult, ListToolsRequestParams, ListToolsResult } from "./tools";

/** Requests a client sends to a server: params and result of each. */
export interface ClientRequestMap {
  initialize: { params: InitializeRequestParams; result: InitializeResult };
  "server/discover": { params: DiscoverRequestParams | undefined; result: DiscoverResult };
  ping: { params: PingRequestParams | undefined; result: EmptyResult };
  "tools/list": { params: ListToolsRequestParams | undefined; result: ListToolsResult };
  "tools/call": { params: CallToolRequestParams; result: CallToolResult | CreateTaskResult };
  "resources/list": { params: ListResourcesRequestParams | undefined; result: ListResourcesResult };
  "resources/templates/list": { params: ListResourceTemplatesRequestParams | undefined; result: ListResourceTemplatesResult };
  "resources/read": { params: ReadResourceRequestParams; result: ReadResourceResult };
  "resources/subscribe": { params: SubscribeRequestParams; result: EmptyResult };
  "resources/unsubscribe": { params: UnsubscribeRequestParams; result: EmptyResult };
  "prompts/list": { params: ListPromptsRequestParams | undefined; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequestParams; result: GetPromptResult };
  "completion/complete": { params: CompleteRequestParams; result: CompleteResult };
  "logging/setLevel": { params: SetLevelRequestParams; result: EmptyResult };
  "tasks/get": { params: TaskIdParams; result: GetTaskResult };
  "tasks/result": { params: TaskIdParams; result: GetTaskPayloadResult };
  "tasks/list": { params: ListTasksRequestParams | undefined; result: ListTasksResult };
  "tasks/cancel": { params: TaskIdParams; result: GetTaskResult };
}

/** Requests a server sends to a client: params and result of each. */
export interface ServerRequestMap {
  ping: { params: PingRequestParams | undefined; result: EmptyResult };
  "sampling/createMessage": { params: CreateMessageRequestParams; result: CreateMessageResult | CreateTaskResult };
  "elicitation/create": { params: ElicitRequestParams; result: ElicitResult | CreateTaskResult };
  "roots/list": { params: ListRootsRequestParams | undefined; result: ListRootsResult };
  "tasks/get": { params: TaskIdParams; result: GetTaskResult };
  "tasks/result": { params: TaskIdParams; result: GetTaskPayloadResult };
  "tasks/list": { params: ListTasksRequestParams | undefined; result: ListTasksResult };
  "tasks/cancel": { params: TaskIdParams; result: GetTaskResult };
}

/** Notifications a client sends: params of each. */
export interface ClientNotificationMap {
  "notifications/initialized": NotificationParams | undefined;
  "notifications/cancelled": CancelledNotificationParams;
  "notifications/progress": ProgressNotificationParams;
  "notifications/roots/list_changed": NotificationParams | undefined;
  "notifications/tasks/status": TaskStatusNotificationParams;
}

/** Notifications a server sends: params of each. */
export interface ServerNotificationMap {
  "notifications/cancelled": CancelledNotificationParams;
  "notifications/progress": ProgressNotificationParams;
  "notifications/message": LoggingMessageNotificationParams;
  "notifications/tools/list_changed": NotificationParams | undefined;
  "notifications/resources/list_changed": NotificationParams | undefined;
  "notifications/resources/updated": ResourceUpdatedNotificationParams;
  "notifications/prompts/list_changed": NotificationParams | undefined;
  "notifications/elicitation/complete": ElicitationCompleteNotificationParams;
  "notifications/tasks/status": TaskStatusNotificationParams;
}

/** A method a client may call. */
export type ClientRequestMethod = keyof ClientRequestMap;
/** A method a server may call. */
export type ServerRequestMethod = keyof ServerRequestMap;
/** A notification a client may send. */
export type ClientNotificationMethod = keyof ClientNotificationMap;
/** A notification a server may send. */
export type ServerNotificationMethod = keyof ServerNotificationMap;

type Requests<M> = { [K in keyof M]: M[K] extends { params: infer P } ? { readonly method: K; readonly params?: P } : never }[keyof M];
type Notifications<M> = { [K in keyof M]: { readonly method: K; readonly params?: M[K] } }[keyof M];

/** Any client request, as `{ method, params }` (without the JSON-RPC envelope). */
export type ClientRequest = Requests<ClientRequestMap>;
/** Any server request, as `{ method, params }`. */
export type ServerRequest = Requests<ServerRequestMap>;
/** Any client notification, as `{ method, params }`. */
export type ClientNotification = Notifications<ClientNotificationMap>;
/** Any server notification, as `{ method, params }`. */
export type ServerNotification = Notifications<ServerNotificationMap>;
/** Any result a server sends. */
export type ServerResult = ClientRequestMap[ClientRequestMethod]["result"];
/** Any result a client sends. */
export type ClientResult = ServerRequestMap[ServerRequestMethod]["result"];
