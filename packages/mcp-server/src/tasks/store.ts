/**
 * Where tasks live between requests (MCP 2025-11-25 basic/utilities/tasks; the tasks extension
 * `io.modelcontextprotocol/tasks`): a `TaskStore` keeps each task's state, so a task outlives the
 * request that created it, its client's reconnects and, with a shared store, the instance that
 * answered. The work itself (the running handler, its abort signal, the input requests it
 * awaits) stays on the instance that runs it, but everything a client does reaches it through
 * the store: any instance reads the task, stores answers to its input requests (`answer`), which
 * the running instance collects (`claim`, at each poll interval), and cancels it. The running
 * instance holds a lease on each task it runs (`renew`); a store fails a task whose lease ran
 * out, so a task whose instance died ends `failed` instead of `working` forever. A store never
 * decides otherwise; the server checks ownership, TTLs and transitions before and after each call.
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
  /**
   * Until when (ms since the epoch, the store's clock) the running instance holds the task;
   * set by the store (`create`, `renew`). Past it, an unfinished task is failed with `LEASE_LOST_ERROR`.
   */
  readonly leaseUntil?: number;
}

/** The error a store gives a task whose lease ran out (its instance stopped renewing it). */
export const LEASE_LOST_ERROR = {
  code: -32603,
  message: "The task was lost: the server instance running it stopped before it finished (its lease expired). Start it again.",
} as const;

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

/** Input responses by input request key, as the client sent them (already checked by the server). */
export type TaskResponses = { readonly [key: string]: unknown };

/**
 * Storage of task state, shared by every instance that serves the tasks. Contract (the suite
 * in `store-contract.ts` checks it for every implementation):
 * - every method is atomic per task (read, check, write), and a terminal task never changes;
 * - a record past `createdAt + ttlMs` is gone (every method answers as for an unknown task);
 * - an unfinished task past its `leaseUntil` is failed with `LEASE_LOST_ERROR` by whichever
 *   call sees it first (its input requests and unclaimed responses dropped);
 * - a key answered (`answer`) is never outstanding again: `update` leaves it out of
 *   `inputRequests`, and a status `input_required` with no outstanding request is stored `working`;
 * - what is kept is bounded (finished tasks make room for new ones; `create` rejects when full).
 * The server awaits each call before answering, so a `CreateTaskResult` is sent only once `get`
 * would find the task.
 */
export interface TaskStore {
  /**
   * Stores a new task, held by the caller for `leaseMs` (see `renew`). Rejects (with an error
   * saying why) when the store cannot take it, e.g. it is full of unfinished tasks.
   */
  create(record: TaskRecord, leaseMs: number): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Applies `patch` unless the task is terminal; undefined when unknown or expired. */
  update(taskId: string, patch: TaskPatch): Promise<TaskUpdate | undefined>;
  /**
   * Records responses to outstanding input requests of an unfinished task: each key of
   * `responses` that is outstanding leaves `inputRequests` and waits for `claim`; other keys are
   * ignored. When none stays outstanding, an `input_required` task becomes `working`
   * (`lastUpdatedAt` set to `at`). Undefined when unknown or expired.
   */
  answer(taskId: string, responses: TaskResponses, at: number): Promise<TaskUpdate | undefined>;
  /** Takes the responses recorded by `answer` and not claimed yet (each is claimed once); `{}` when none. */
  claim(taskId: string): Promise<TaskResponses>;
  /**
   * Extends the lease of the unfinished tasks among `taskIds` to `leaseMs` from now. Resolves
   * with the others (finished, failed by a lost lease, unknown or expired): their work should stop.
   */
  renew(taskIds: readonly string[], leaseMs: number): Promise<readonly string[]>;
  /** Forgets a task (its TTL elapsed while it ran). */
  delete(taskId: string): Promise<void>;
  /** The live tasks of `owner`, newest first, `limit` per page. */
  list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage>;
}

/** True for the statuses a task never leaves. */
export function isTerminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}
