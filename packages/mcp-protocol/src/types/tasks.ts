/** Tasks: durable, pollable request execution (MCP 2025-11-25, basic/utilities/tasks, experimental). */
import type { NotificationParams, PaginatedRequestParams, PaginatedResult, RequestParams, Result } from "./base";

/** Asks the receiver to run a request as a task. */
export interface TaskMetadata {
  /** How long to keep the task after creation, in milliseconds. */
  readonly ttl?: number;
}

/** Associates a message with a task, under `_meta["io.modelcontextprotocol/related-task"]`. */
export interface RelatedTaskMetadata {
  readonly taskId: string;
}

/** Where a task stands. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task's state. */
export interface Task {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Retention in milliseconds from creation, or null for unlimited. */
  readonly ttl: number | null;
  /** Suggested polling interval in milliseconds. */
  readonly pollInterval?: number;
}

/** The immediate answer to a task-augmented request. */
export interface CreateTaskResult extends Result {
  readonly task: Task;
}

/** Params of `tasks/get`, `tasks/result` and `tasks/cancel`. */
export interface TaskIdParams extends RequestParams {
  readonly taskId: string;
}

/** Result of `tasks/get` and `tasks/cancel`. */
export type GetTaskResult = Result & Task;

/** Result of `tasks/result`: the original request's result type. */
export interface GetTaskPayloadResult extends Result {
  readonly [key: string]: unknown;
}

/** Params of `tasks/list`. */
export type ListTasksRequestParams = PaginatedRequestParams;

/** Result of `tasks/list`. */
export interface ListTasksResult extends PaginatedResult {
  readonly tasks: readonly Task[];
}

/** Params of `notifications/tasks/status`. */
export type TaskStatusNotificationParams = NotificationParams & Task;
