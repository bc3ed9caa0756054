/**
 * The client as a task receiver (MCP 2025-11-25 basic/utilities/tasks, "Client capabilities"):
 * with `tasks.serveRequests` the client declares `capabilities.tasks` (`list`, `cancel`, and
 * `requests.sampling.createMessage` / `requests.elicitation.create` for the handlers it has) and
 * runs a server's task-augmented `sampling/createMessage` or `elicitation/create` as a task:
 * it answers `CreateTaskResult` at once, runs the user's existing handler as the task's work,
 * serves `tasks/get`, `tasks/result` (blocks until terminal), `tasks/list` and `tasks/cancel`
 * (aborts the handler's signal), and sends `notifications/tasks/status` on every change.
 * Bounded: at most `maxTasks` kept (the longest finished evicted first; a new task is refused
 * with -32603 while all are running); each task is forgotten when its TTL elapses. The tasks
 * belong to the client and outlive a reconnect (each new session serves them too).
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Peer } from "@proto/jsonrpc";
import { MetaKey, NotificationMethod, RequestMethod } from "@proto/mcp-protocol";
import type { ClientCapabilities, Task, TaskStatus } from "@proto/mcp-protocol";
import type { ServedTaskOptions } from "./task-types";
import { checkTimeout } from "./deadline";

interface Entry {
  task: { -readonly [K in keyof Task]: Task[K] };
  readonly controller: AbortController;
  outcome?: { readonly result: unknown } | { readonly error: JsonRpcError };
  readonly waiters: Set<() => void>;
  timer?: ReturnType<typeof setTimeout>;
  peer: Peer;
}

function terminal(status: TaskStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled";
}

function newId(): string {
  let hex = "";
  for (const byte of crypto.getRandomValues(new Uint8Array(16))) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

function notFound(): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Failed to retrieve task: Task not found (unknown or expired)");
}

/** The served tasks of one client. */
export type ServedTasks = ReturnType<typeof createServedTasks>;

/** Creates the served tasks from `ClientOptions.tasks.serveRequests` (true or its options). */
export function createServedTasks(options: true | ServedTaskOptions) {
  const o = options === true ? {} : options;
  if (typeof o !== "object" || o === null) throw new TypeError("tasks.serveRequests must be true or { maxTasks?, maxTtlMs?, pollIntervalMs? }");
  const maxTasks = o.maxTasks ?? 100;
  if (!Number.isInteger(maxTasks) || maxTasks < 1) throw new TypeError(`tasks.serveRequests.maxTasks must be a positive integer, got ${String(maxTasks)}`);
  checkTimeout("tasks.serveRequests.maxTtlMs", o.maxTtlMs);
  checkTimeout("tasks.serveRequests.pollIntervalMs", o.pollIntervalMs);
  const maxTtl = o.maxTtlMs ?? 3_600_000;
  const pollInterval = o.pollIntervalMs ?? 500;
  const tasks = new Map<string, Entry>();

  function change(entry: Entry, status: TaskStatus, message?: string): void {
    if (terminal(entry.task.status)) return;
    entry.task.status = status;
    entry.task.lastUpdatedAt = new Date().toISOString();
    if (message !== undefined) entry.task.statusMessage = message;
    if (terminal(status)) for (const wake of [...entry.waiters]) wake();
    entry.peer.notify(NotificationMethod.TaskStatus, { ...entry.task } as unknown as JsonRpcParams).catch(() => undefined);
  }

  function forget(id: string): void {
    const entry = tasks.get(id);
    if (entry === undefined) return;
    tasks.delete(id);
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.controller.abort(new JsonRpcError(JsonRpcErrorCode.InternalError, "The task's TTL elapsed"));
    for (const wake of [...entry.waiters]) wake();
  }

  function makeRoom(): void {
    if (tasks.size < maxTasks) return;
    for (const [id, entry] of tasks) if (terminal(entry.task.status)) return forget(id);
    throw new JsonRpcError(JsonRpcErrorCode.InternalError, `This client runs at most ${maxTasks} tasks at once; retry when one has finished`);
  }

  function find(params: JsonRpcParams | undefined): Entry {
    const id = (params as { taskId?: unknown } | undefined)?.taskId;
    const entry = typeof id === "string" ? tasks.get(id) : undefined;
    if (entry === undefined) throw notFound();
    return entry;
  }

  return {
    /** `capabilities.tasks` for the methods the client can run as tasks. */
    capabilities(methods: { readonly sampling: boolean; readonly elicitation: boolean }): ClientCapabilities["tasks"] {
      const requests = { ...(methods.sampling ? { sampling: { createMessage: {} } } : {}), ...(methods.elicitation ? { elicitation: { create: {} } } : {}) };
      return { list: {}, cancel: {}, requests };
    },

    /** Starts `run` as a task for a request with `params.task`; returns the `CreateTaskResult`. */
    start(peer: Peer, requested: unknown, run: (signal: AbortSignal) => Promise<unknown>): { task: Task } {
      makeRoom();
      const ttlAsked = (requested as { ttl?: unknown } | undefined)?.ttl;
      const ttl = typeof ttlAsked === "number" && Number.isFinite(ttlAsked) && ttlAsked > 0 ? Math.min(Math.ceil(ttlAsked), maxTtl) : maxTtl;
      const now = new Date().toISOString();
      const entry: Entry = { task: { taskId: newId(), status: "working", createdAt: now, lastUpdatedAt: now, ttl, pollInterval }, controller: new AbortController(), waiters: new Set(), peer };
      tasks.set(entry.task.taskId, entry);
      entry.timer = setTimeout(() => forget(entry.task.taskId), ttl);
      (entry.timer as { unref?: () => void }).unref?.();
      void run(entry.controller.signal).then(
        (result) => {
          if (terminal(entry.task.status)) return;
          entry.outcome = { result };
          change(entry, "completed");
        },
        (error: unknown) => {
          if (terminal(entry.task.status)) return;
          const e = JsonRpcError.from(error);
          entry.outcome = { error: e };
          change(entry, "failed", e.message);
        },
      );
      return { task: { ...entry.task } };
    },

    /** Registers `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` on `peer`. */
    register(peer: Peer): void {
      peer.handle(RequestMethod.TasksGet, (params) => {
        const entry = find(params);
        entry.peer = peer;
        return { ...entry.task };
      });
      peer.handle(RequestMethod.TasksResult, async (params, ctx) => {
        const entry = find(params);
        entry.peer = peer;
        while (!terminal(entry.task.status) && tasks.has(entry.task.taskId) && !ctx.signal.aborted) {
          await new Promise<void>((resolve) => {
            const done = (): void => (entry.waiters.delete(done), ctx.signal.removeEventListener("abort", done), resolve());
            entry.waiters.add(done);
            ctx.signal.addEventListener("abort", done, { once: true });
          });
        }
        const outcome = entry.outcome;
        if (outcome === undefined) throw new JsonRpcError(JsonRpcErrorCode.InternalError, `Task ${entry.task.taskId} was ${tasks.has(entry.task.taskId) ? "cancelled" : "forgotten (its TTL elapsed)"}; it has no result`);
        if ("error" in outcome) throw outcome.error;
        const result = (typeof outcome.result === "object" && outcome.result !== null ? outcome.result : {}) as Record<string, unknown>;
        const meta = typeof result._meta === "object" && result._meta !== null ? result._meta : {};
        return { ...result, _meta: { ...meta, [MetaKey.RelatedTask]: { taskId: entry.task.taskId } } };
      });
      peer.handle(RequestMethod.TasksList, (params) => {
        if ((params as { cursor?: unknown } | undefined)?.cursor !== undefined) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: this client lists its tasks on one page; send no cursor");
        return { tasks: [...tasks.values()].map((e) => ({ ...e.task })).reverse() };
      });
      peer.handle(RequestMethod.TasksCancel, (params) => {
        const entry = find(params);
        if (terminal(entry.task.status)) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: Cannot cancel task: already in terminal status '${entry.task.status}'`);
        entry.peer = peer;
        change(entry, "cancelled", "The task was cancelled by request.");
        entry.controller.abort(new JsonRpcError(JsonRpcErrorCode.InternalError, "The task was cancelled"));
        return { ...entry.task };
      });
    },

    /** Forgets every task (the client closed). */
    close(): void {
      for (const id of [...tasks.keys()]) forget(id);
    },
  };
}
