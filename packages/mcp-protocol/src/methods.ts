/** MCP method names (MCP 2025-11-25 schema; `server/discover` and `subscriptions/listen` from 2026-07-28). */

/** Request methods, either direction. */
export const RequestMethod = {
  Initialize: "initialize",
  Discover: "server/discover",
  Ping: "ping",
  ToolsList: "tools/list",
  ToolsCall: "tools/call",
  ResourcesList: "resources/list",
  ResourceTemplatesList: "resources/templates/list",
  ResourcesRead: "resources/read",
  ResourcesSubscribe: "resources/subscribe",
  ResourcesUnsubscribe: "resources/unsubscribe",
  PromptsList: "prompts/list",
  PromptsGet: "prompts/get",
  CompletionComplete: "completion/complete",
  LoggingSetLevel: "logging/setLevel",
  SamplingCreateMessage: "sampling/createMessage",
  ElicitationCreate: "elicitation/create",
  RootsList: "roots/list",
  TasksGet: "tasks/get",
  TasksResult: "tasks/result",
  TasksList: "tasks/list",
  TasksCancel: "tasks/cancel",
  /** Answers a task's input requests (tasks extension, 2026-07-28). */
  TasksUpdate: "tasks/update",
  /** A long-lived request whose stream carries the notifications asked for (2026-07-28). */
  SubscriptionsListen: "subscriptions/listen",
} as const;

/** One of the request methods. */
export type RequestMethod = (typeof RequestMethod)[keyof typeof RequestMethod];

/** Notification methods, either direction. */
export const NotificationMethod = {
  Initialized: "notifications/initialized",
  Cancelled: "notifications/cancelled",
  Progress: "notifications/progress",
  Message: "notifications/message",
  ToolListChanged: "notifications/tools/list_changed",
  ResourceListChanged: "notifications/resources/list_changed",
  ResourceUpdated: "notifications/resources/updated",
  PromptListChanged: "notifications/prompts/list_changed",
  RootsListChanged: "notifications/roots/list_changed",
  ElicitationComplete: "notifications/elicitation/complete",
  TaskStatus: "notifications/tasks/status",
  /** The detailed task on a `subscriptions/listen` stream (tasks extension, 2026-07-28). */
  Tasks: "notifications/tasks",
  /** The first message of a `subscriptions/listen` stream: what the server honours (2026-07-28). */
  SubscriptionsAcknowledged: "notifications/subscriptions/acknowledged",
} as const;

/** One of the notification methods. */
export type NotificationMethod = (typeof NotificationMethod)[keyof typeof NotificationMethod];

/** The levels of `logging/setLevel`, least severe first (index order is severity order). */
export const LOGGING_LEVELS = Object.freeze([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const);

/**
 * Methods 2026-07-28 removed: a request for one of them made under a stateless revision is
 * -32601 even though a session-era server answers it (2026-07-28 changelog).
 */
export const REMOVED_MODERN_METHODS: readonly string[] = Object.freeze([
  RequestMethod.Initialize,
  RequestMethod.Ping,
  RequestMethod.LoggingSetLevel,
  RequestMethod.ResourcesSubscribe,
  RequestMethod.ResourcesUnsubscribe,
]);

/**
 * Methods of the 2025-11-25 tasks the tasks extension removed: under 2026-07-28 they are -32601
 * (the result is inlined on `tasks/get`; there is no listing).
 */
export const REMOVED_MODERN_TASK_METHODS: readonly string[] = Object.freeze([RequestMethod.TasksResult, RequestMethod.TasksList]);

/** The methods whose result may be an `input_required` result (2026-07-28 basic/patterns/mrtr). */
export const INPUT_REQUIRED_METHODS: readonly string[] = Object.freeze([
  RequestMethod.ToolsCall,
  RequestMethod.PromptsGet,
  RequestMethod.ResourcesRead,
]);
