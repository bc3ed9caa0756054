/**
 * Where tasks live between requests (MCP 2025-11-25 basic/utilities/tasks; the tasks extension
 * `io.modelcontextprotocol/tasks`): a `TaskStore` keeps each task's state, so a task outlives the
 * request that created it, its client's reconnects and, with a shared store, the instance that
 * answered. The work itself (the running handler, its abort signal, the input requests it
 * awaits) stays on the instance that runs it; route `tasks/*` requests there (Streamable HTTP
 * sends `Mcp-Name: <taskId>` for that). A store never decides; the server checks ownership,
 * TTLs and transitions before and after each call.
 */
import type { InputRequest, JsonObject, TaskStatus } from "@proto/mcp-protocol";

/** One task as the server stores it. Plain data (serialisable as JSON). */
export interface TaskRecord {
  /** Unguessable (128 random bits, base64url). */
  readonly taskId: string;
  /**
   * Who may see the task: `principal:<subject>` when the creating request was authenticated
   * (only that principal may read, answer, cancel or list it), else `session:<id>` (listed to
   * that session only; the id itself is the bearer) or `anonymous` (2026-07-28 without auth).
   */
  readonly owner: string;
  /** The request that became the task (`tools/call`). */
  readonly method: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** Milliseconds since the epoch. */
  readonly lastUpdatedAt: number;
  /** Retention from creation in milliseconds; null for unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** Outstanding requests to the client, by key (unique over the task's life); absent when none. */
  readonly inputRequests?: { readonly [key: string]: InputRequest };
  /** The request's result, once `completed`. */
  readonly result?: JsonObject;
  /** The JSON-RPC error (`code`, `message`, `data?`), once `failed`. */
  readonly error?: JsonObject;
}

/** A change to a task: only the fields given change; `lastUpdatedAt` is set by the caller. */
export type TaskPatch = Partial<Pick<TaskRecord, "status" | "statusMessage" | "inputRequests" | "result" | "error" | "lastUpdatedAt">>;

/** What `update` did. */
export interface TaskUpdate {
  /** The task after the call (unchanged when `applied` is false). */
  readonly record: TaskRecord;
  /** False when the task was already terminal (`completed`, `failed`, `cancelled`): terminal tasks never change. */
  readonly applied: boolean;
}

/** A page of `list`. */
export interface TaskPage {
  readonly records: readonly TaskRecord[];
  /** Opaque; pass it back for the next page. Absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * Storage of task state. Implementations must make `update` atomic per task (read, check
 * terminal, write), treat a record past `createdAt + ttlMs` as gone, and bound what they keep.
 * Every method may be asynchronous; the server awaits each call before answering, so a
 * `CreateTaskResult` is sent only once `get` would find the task.
 */
export interface TaskStore {
  /** Stores a new task. Rejects (with an error saying why) when the store cannot take it, e.g. it is full of unfinished tasks. */
  create(record: TaskRecord): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies `patch` unless the task is terminal; undefined when unknown or expired. */
  update(taskId: string, patch: TaskPatch): Promise<TaskUpdate | undefined>;
  /** Forgets a task (its TTL elapsed while it ran). */
  delete(taskId: string): Promise<void>;
  /** The live tasks of `owner`, newest first, `limit` per page. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage>;
}

/** True for the statuses a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
