/**
 * The tasks extension `io.modelcontextprotocol/tasks` for the stateless revision (ext-tasks
 * `specification/draft`, SEP-2663): negotiated per request under
 * `clientCapabilities.extensions`, a flat `CreateTaskResult` with `resultType: "task"`,
 * `tasks/get` answering the detailed task, `tasks/update` carrying input responses,
 * `tasks/cancel` acknowledged empty, and `notifications/tasks` on `subscriptions/listen`.
 * There is no `tasks/result`, no `tasks/list`, no `ttl`/`pollInterval` and no `requestState`.
 */
import type { JsonObject, NotificationParams, RequestParams, Result } from "./base";
import type { InputRequests, InputResponses } from "./stateless";
import type { TaskStatus } from "./tasks";

/** The extension identifier, under `capabilities.extensions` on both sides. */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The `resultType` of a `CreateTaskResult` (reserved for this extension). */
export const TASK_RESULT_TYPE = "task";

/** A task's state on the extension's wire. */
export interface ModernTask {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Retention from creation in integer milliseconds, null for unlimited. */
  readonly ttlMs: number | null;
  /** Suggested polling interval in integer milliseconds. */
  readonly pollIntervalMs?: number;
}

/** A task in `working` status. */
export interface WorkingTask extends ModernTask {
  readonly status: "working";
}

/** A task waiting for the client: the outstanding requests, by key unique over the task's life. */
export interface InputRequiredTask extends ModernTask {
  readonly status: "input_required";
  readonly inputRequests: InputRequests;
}

/** A finished task with the original request's result (a tool's `isError` result included). */
export interface CompletedTask extends ModernTask {
  readonly status: "completed";
  readonly result: JsonObject;
}

/** A task that ended with a JSON-RPC error (`{ code, message, data? }`). */
export interface FailedTask extends ModernTask {
  readonly status: "failed";
  readonly error: JsonObject;
}

/** A cancelled task. */
export interface CancelledTask extends ModernTask {
  readonly status: "cancelled";
}

/** The task with what its status carries: what `tasks/get` and `notifications/tasks` send. */
export type DetailedTask = WorkingTask | InputRequiredTask | CompletedTask | FailedTask | CancelledTask;

/** The answer of a request the server turned into a task: flat, `resultType: "task"`. */
export type ModernCreateTaskResult = Result & ModernTask & { readonly resultType: typeof TASK_RESULT_TYPE };

/** Result of `tasks/get` (`resultType: "complete"`). */
export type ModernGetTaskResult = Result & DetailedTask & { readonly resultType: "complete" };

/** Params of `tasks/update`: answers to outstanding input requests (unknown keys are ignored). */
export interface UpdateTaskRequestParams extends RequestParams {
  readonly taskId: string;
  readonly inputResponses: InputResponses;
}

/** Params of `notifications/tasks`: the detailed task, on a `subscriptions/listen` stream. */
export type TaskNotificationParams = NotificationParams & DetailedTask;

/** The extension's client requests (2026-07-28), params and result of each; `tasks/result` and `tasks/list` are not among them. */
export interface TasksExtensionRequestMap {
  "tasks/get": { params: { readonly taskId: string } & RequestParams; result: ModernGetTaskResult };
  "tasks/update": { params: UpdateTaskRequestParams; result: Result };
  "tasks/cancel": { params: { readonly taskId: string } & RequestParams; result: Result };
}

/** The extension's server notifications (2026-07-28, on `subscriptions/listen` streams). */
export interface TasksExtensionNotificationMap {
  "notifications/tasks": TaskNotificationParams;
}
