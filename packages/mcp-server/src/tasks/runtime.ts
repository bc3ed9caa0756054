/**
 * The tasks of one server (MCP 2025-11-25 basic/utilities/tasks; tasks extension): creating a
 * task (persisted before its `CreateTaskResult` is sent), the live part of each running task
 * on this instance (`live-task.ts`: its abort signal, the input requests its handler awaits,
 * watchers of its changes; its TTL timer is set here), status transitions through the store
 * (terminal states never change: a cancellation racing a completion keeps whichever the store
 * applied first), and the status pushes of both eras.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { NotificationMethod } from "@proto/mcp-protocol";
import type { InputRequest, JsonObject } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import { createHeartbeat } from "./heartbeat";
import { askInput, deliver, newLiveTask, waitForChange } from "./live-task";
import type { LiveTask, PendingInput } from "./live-task";
import { checkOptions } from "./options";
import type { TasksOptions } from "./options";
import { newTaskId, ownerOf } from "./ownership";
import type { TaskRecord, TaskStore } from "./store";
import { isTerminal } from "./store";
import { detailedTask, legacyTask } from "./wire";

export type { LiveTask, PendingInput } from "./live-task";

function toWireError(error: unknown): JsonObject {
  const e = JsonRpcError.from(error);
  return (e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data }) as JsonObject;
}

const TTL_ELAPSED = "The task's TTL elapsed";

/** What the runtime needs from the server. */
export interface TaskRuntimeHost {
  readonly logger: Logger;
  /** Sends to the `subscriptions/listen` streams that asked for the task (2026-07-28). */
  readonly stream: (method: string, params: JsonRpcParams) => void;
}

/** Creates the runtime over `store`. */
export function createTaskRuntime(store: TaskStore, options: TasksOptions, host: TaskRuntimeHost) {
  checkOptions(options);
  const defaultTtl = options.defaultTtlMs === undefined ? 3_600_000 : options.defaultTtlMs;
  const maxTtl = options.maxTtlMs ?? 86_400_000;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const lives = new Map<string, LiveTask>();

  const ttlFor = (requested: unknown): number | null => {
    const asked = typeof requested === "number" && Number.isFinite(requested) && requested > 0 ? Math.ceil(requested) : defaultTtl;
    return asked === null ? null : Math.min(asked, maxTtl);
  };

  function emit(record: TaskRecord, live: LiveTask | undefined): void {
    if (live !== undefined) for (const wake of [...live.watchers]) wake();
    if (live !== undefined && !live.modern) {
      live.session.notify(NotificationMethod.TaskStatus, legacyTask(record) as unknown as JsonRpcParams).catch(() => undefined);
    } else if (live === undefined || live.modern) {
      host.stream(NotificationMethod.Tasks, detailedTask(record) as unknown as JsonRpcParams);
    }
  }

  function release(live: LiveTask, reason: unknown): void {
    if (live.timer !== undefined) clearTimeout(live.timer);
    lives.delete(live.id);
    for (const input of live.inputs.values()) input.reject(reason);
    live.inputs.clear();
    for (const wake of [...live.watchers]) wake();
  }

  async function patch(live: LiveTask | undefined, taskId: string, change: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    const done = await store.update(taskId, { ...change, lastUpdatedAt: Date.now() });
    if (done?.applied === true) emit(done.record, live);
    return done?.applied === true ? done.record : undefined;
  }

  /** The outstanding input requests of `live` as stored, and the status they imply. */
  function syncInputs(live: LiveTask): Promise<TaskRecord | undefined> {
    const inputRequests: Record<string, InputRequest> = {};
    for (const [key, input] of live.inputs) inputRequests[key] = input.request;
    const waiting = live.inputs.size > 0;
    return patch(live, live.id, { status: waiting ? "input_required" : "working", inputRequests });
  }

  /** Stops the work of a task that ended elsewhere or must end here. */
  function stop(live: LiveTask, reason: JsonRpcError): void {
    live.controller.abort(reason);
    release(live, reason);
  }

  const heartbeat = createHeartbeat({
    store,
    logger: host.logger,
    leaseMs,
    intervalMs: Math.max(1, Math.min(pollIntervalMs, Math.floor(leaseMs / 3))),
    running: () => [...lives.keys()],
    waiting: () => [...lives.values()].filter((live) => live.inputs.size > 0).map((live) => live.id),
    ended(taskId) {
      const live = lives.get(taskId);
      if (live === undefined) return;
      const expired = live.deadline !== undefined && Date.now() >= live.deadline;
      stop(live, new JsonRpcError(JsonRpcErrorCode.InternalError, expired ? TTL_ELAPSED : "The task ended on another server instance (cancelled or lost)"));
    },
    deliver(taskId, responses) {
      const live = lives.get(taskId);
      if (live !== undefined) deliver(live, responses);
    },
  });

  return {
    store,
    pollIntervalMs,
    pageSize: options.listPageSize ?? 100,
    live: (taskId: string): LiveTask | undefined => lives.get(taskId),

    /** Persists a new `working` task for the request of `ctx`; rejects with -32603 when the store refuses. */
    async create(ctx: RequestContext, requestedTtl: unknown): Promise<{ record: TaskRecord; live: LiveTask }> {
      const now = Date.now();
      const record: TaskRecord = {
        taskId: newTaskId(),
        owner: ownerOf(ctx),
        method: ctx.method,
        status: "working",
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: ttlFor(requestedTtl),
        pollIntervalMs,
      };
      try {
        await store.create(record, leaseMs);
      } catch (error) {
        throw new JsonRpcError(JsonRpcErrorCode.InternalError, `Cannot create a task: ${error instanceof Error ? error.message : String(error)}`);
      }
      const live = newLiveTask(record, ctx);
      if (record.ttlMs !== null) {
        live.timer = setTimeout(() => void this.expire(live), record.ttlMs);
        (live.timer as { unref?: () => void }).unref?.();
      }
      lives.set(record.taskId, live);
      heartbeat.wake();
      return { record, live };
    },

    /** Records the handler's outcome (ignored when the task is already terminal, e.g. cancelled). */
    async settle(live: LiveTask, outcome: { readonly result: unknown } | { readonly error: unknown }): Promise<void> {
      const change: Partial<TaskRecord> =
        "result" in outcome
          ? { status: "completed", result: (outcome.result ?? {}) as JsonObject, inputRequests: {} }
          : { status: "failed", error: toWireError(outcome.error), statusMessage: JsonRpcError.from(outcome.error).message, inputRequests: {} };
      try {
        await patch(live, live.id, change);
      } catch (error) {
        host.logger.error(`Task ${live.id}: its outcome could not be stored`, error);
      }
      release(live, new Error("the task ended"));
    },

    /** Sets the status message of a running task (from `ctx.progress(..., message)`). */
    status(live: LiveTask, message: string): void {
      if (!lives.has(live.id)) return;
      patch(live, live.id, { statusMessage: message }).catch((error: unknown) => host.logger.warn(`Task ${live.id}: status not stored`, error));
    },

    /** A request of the task's handler to the client: stored as an input request until answered. */
    ask(live: LiveTask, method: string, params: JsonRpcParams | undefined, inputKey: unknown, signal: AbortSignal | undefined): Promise<unknown> {
      return askInput(live, method, params, inputKey, signal, syncInputs, host.logger);
    },

    /**
     * Stores checked answers to outstanding input requests of `taskId` (any instance may take
     * them): the task's handler gets them at once when it runs here, else at its instance's next
     * heartbeat. Keys not outstanding are ignored.
     */
    async answer(taskId: string, responses: { readonly [key: string]: unknown }): Promise<void> {
      if (Object.keys(responses).length === 0) return;
      const live = lives.get(taskId);
      const done = await store.answer(taskId, responses, Date.now());
      if (done?.applied === true) emit(done.record, live);
      if (live !== undefined) deliver(live, await store.claim(taskId));
    },

    /** The outstanding inputs of a live task not yet sent on a `tasks/result` stream (2025-11-25). */
    unsent(live: LiveTask): [string, PendingInput][] {
      return [...live.inputs].filter(([, input]) => !input.inFlight);
    },

    /** Cancels a task; the record after the attempt (unchanged when it was terminal already), or undefined when gone. */
    async cancel(record: TaskRecord): Promise<TaskRecord | undefined> {
      const live = lives.get(record.taskId);
      const changed = await patch(live, record.taskId, { status: "cancelled", statusMessage: "The task was cancelled by request.", inputRequests: {} });
      if (changed !== undefined && live !== undefined) stop(live, new JsonRpcError(JsonRpcErrorCode.InternalError, "The task was cancelled"));
      return changed ?? (await store.get(record.taskId));
    },

    /** The TTL of a running task elapsed: its work is stopped and the task forgotten. */
    async expire(live: LiveTask): Promise<void> {
      stop(live, new JsonRpcError(JsonRpcErrorCode.InternalError, TTL_ELAPSED));
      await store.delete(live.id).catch((error: unknown) => host.logger.warn(`Task ${live.id}: not deleted at expiry`, error));
    },

    /** Resolves on the next change of the task (at most one poll interval when it runs elsewhere), or when `signal` aborts. */
    changed(taskId: string, signal: AbortSignal): Promise<void> {
      return waitForChange(lives.get(taskId), signal, pollIntervalMs);
    },
    isTerminal,

    /** The server closes: the tasks running here fail (their handlers' signals abort) and the heartbeat stops. */
    async close(): Promise<void> {
      heartbeat.stop();
      const error = new JsonRpcError(JsonRpcErrorCode.InternalError, "The server closed before the task finished; start it again");
      await Promise.all([...lives.values()].map(async (live) => {
        stop(live, error);
        await patch(live, live.id, { status: "failed", error: toWireError(error), statusMessage: error.message, inputRequests: {} }).catch(() => undefined);
      }));
    },
  };
}

/** The runtime of a server's tasks. */
export type TaskRuntime = ReturnType<typeof createTaskRuntime>;
