/**
 * The public shape of tool calls run as tasks, one API over both task wires: MCP 2025-11-25
 * (basic/utilities/tasks: `task` param, `tasks/get`, `tasks/result`, `tasks/cancel`,
 * `notifications/tasks/status`) and the 2026-07-28 extension `io.modelcontextprotocol/tasks`
 * (a flat `resultType: "task"` answer, `tasks/get` carrying the result, `tasks/update`,
 * `notifications/tasks` on `subscriptions/listen`). Types only; `task-handle.ts` builds a handle.
 */
import type { CallToolResult, ModernTask, TaskStatus } from "@proto/mcp-protocol";
import type { CallToolOptions } from "./client-types";
import type { On } from "./emitter";

/** Where a task stands: `working`, `input_required`, `completed`, `failed` or `cancelled` (the same in both eras). */
export type { TaskStatus };

/**
 * A task's state as the server last reported it, the same in both eras: the extension's
 * `ModernTask` (2025 `ttl`/`pollInterval` are read into `ttlMs`/`pollIntervalMs`). Persist
 * `taskId` to resume after a restart (`client.resumeTask`).
 */
export type TaskInfo = ModernTask;

/** Events of one task handle. */
export interface TaskEvents {
  /** The task's state changed (a poll or a push saw a new status, or a new status message). */
  status: TaskInfo;
}

/** Options of `callToolAsTask`. The request options apply to each request the task makes; `signal` spans the whole task. */
export interface CallToolAsTaskOptions extends CallToolOptions {
  /**
   * The retention to ask for, in milliseconds (2025-11-25 `task.ttl`). A 2026-07-28 server
   * chooses the retention itself, so it is not sent there.
   */
  readonly ttlMs?: number;
}

/**
 * A tool call that may run as a task. Created by `client.callToolAsTask` or `client.resumeTask`;
 * it watches the task (polling at the server's `pollIntervalMs`, woken early by pushes) until
 * the task ends, answers the server's input requests with the client's own sampling,
 * elicitation and roots handlers, and stops on `cancel()`, on `detach()` or when the client closes.
 */
export interface ToolTask {
  /** The task's id; `undefined` when the server answered the call directly (it chose not to make a task). */
  readonly taskId: string | undefined;
  /** The last known state; `undefined` when the server answered directly. */
  readonly task: TaskInfo | undefined;
  /** What the server suggests telling the model while the task runs (`io.modelcontextprotocol/model-immediate-response`). */
  readonly immediateResponse: string | undefined;
  /** Registers a listener; returns the function that removes it. */
  readonly on: On<TaskEvents>;
  /**
   * The tool's result once the task completed (an `isError: true` result resolves, as with
   * `callTool`). Rejects with the server's `JsonRpcError` when the call failed, with
   * `McpClientError` `TASK_CANCELLED` when it was cancelled, `TASK_NOT_FOUND` when the server
   * no longer knows it (expired or never existed), `TASK_DETACHED` after `detach()`.
   * The same promise every time.
   */
  result(): Promise<CallToolResult>;
  /**
   * Asks the server to cancel the task (`tasks/cancel`) and stops watching it. Resolves with
   * the state after the cancel (`undefined` when there was no task). When the task had already
   * finished, `result()` keeps its outcome; otherwise it rejects with `TASK_CANCELLED`.
   */
  cancel(): Promise<TaskInfo | undefined>;
  /** Stops watching without cancelling the server's work; `result()` rejects with `TASK_DETACHED`. Resume later with `client.resumeTask(taskId)`. */
  detach(): void;
}

/** Task behaviour of a client (`ClientOptions.tasks`). */
export interface TaskClientOptions {
  /** The polling interval when the server suggests none, in milliseconds. Default 1,000. */
  readonly defaultPollIntervalMs?: number;
  /** The longest wait between two polls, whatever the server suggests, in milliseconds. Default 30,000. */
  readonly maxPollIntervalMs?: number;
  /**
   * 2026-07-28: watch running tasks on `subscriptions/listen` (`taskIds`) as well as by polling.
   * Default true. (2025-11-25 pushes, `notifications/tasks/status`, are always taken.)
   */
  readonly listen?: boolean;
  /**
   * 2025-11-25: run the server's task-augmented `sampling/createMessage` and
   * `elicitation/create` (`params.task`) as tasks on this client, with the `sampling` and
   * `elicitation` handlers as their work. Declares `capabilities.tasks` (list, cancel, and
   * `requests` for the handlers given). Default false (such requests are answered plainly).
   */
  readonly serveRequests?: boolean | ServedTaskOptions;
}

/** Bounds of the tasks a client runs for its server (`TaskClientOptions.serveRequests`). */
export interface ServedTaskOptions {
  /** Most tasks kept at once, finished ones included (the longest finished goes first). Default 100. */
  readonly maxTasks?: number;
  /** Longest TTL granted (a server's `task.ttl` above it is lowered; none asked gets it), ms. Default 3,600,000. */
  readonly maxTtlMs?: number;
  /** The `pollInterval` suggested to the server, ms. Default 500. */
  readonly pollIntervalMs?: number;
}
