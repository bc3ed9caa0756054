/** MCP method names (MCP 2025-11-25 schema; `server/discover` from 2026-07-28). */

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
