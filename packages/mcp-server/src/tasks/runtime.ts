/**
 * The tasks of one server (MCP 2025-11-25 basic/utilities/tasks; tasks extension): creating a
 * task (persisted before its `CreateTaskResult` is sent), the live part of each running task
 * on this instance (its abort signal, the input requests its handler awaits, watchers of its
 * changes, its TTL timer), status transitions through the store (terminal states never
 * change: a cancellation racing a completion keeps whichever the store applied first), and
 * the status pushes of both eras.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { isModernProtocolVersion, NotificationMethod, RequestMethod } from "@proto/mcp-protocol";
import type { InputRequest, JsonObject } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import { checkOptions } from "./options";
import type { TasksOptions } from "./options";
import { newTaskId, ownerOf } from "./ownership";
import type { ServerSession } from "../session-types";
import { checkAnswer } from "../stateless/input-rounds";
import type { TaskRecord, TaskStore } from "./store";
import { isTerminal } from "./store";
import { detailedTask, legacyTask } from "./wire";

/** One input request a running task awaits. */
export interface PendingInput {
  readonly request: InputRequest;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
  /** Sent on a `tasks/result` stream and not answered yet (2025-11-25). */
  inFlight: boolean;
}

/** The part of a running task that lives on this instance. */
export interface LiveTask {
  readonly id: string;
  readonly modern: boolean;
  readonly session: ServerSession;
  readonly controller: AbortController;
  readonly inputs: Map<string, PendingInput>;
  /** Every input key used so far (keys are unique over the task's life). */
  readonly used: Set<string>;
  /** How many input requests the handler made. */
  asked: number;
  readonly watchers: Set<() => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

const KIND: { readonly [method: string]: string } = {
  [RequestMethod.SamplingCreateMessage]: "sample",
  [RequestMethod.ElicitationCreate]: "elicit",
  [RequestMethod.RootsList]: "roots",
};

function toWireError(error: unknown): JsonObject {
  const e = JsonRpcError.from(error);
  return (e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data }) as JsonObject;
}

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
        await store.create(record);
      } catch (error) {
        throw new JsonRpcError(JsonRpcErrorCode.InternalError, `Cannot create a task: ${error instanceof Error ? error.message : String(error)}`);
      }
      const live: LiveTask = {
        id: record.taskId,
        modern: isModernProtocolVersion(ctx.protocolVersion),
        session: ctx.session,
        controller: new AbortController(),
        inputs: new Map(),
        used: new Set(),
        asked: 0,
        watchers: new Set(),
        timer: undefined,
      };
      if (record.ttlMs !== null) {
        live.timer = setTimeout(() => void this.expire(live), record.ttlMs);
        (live.timer as { unref?: () => void }).unref?.();
      }
      lives.set(record.taskId, live);
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
      const kind = KIND[method];
      if (kind === undefined) return Promise.reject(new TypeError(`ctx.request("${method}"): a task asks the client only for sampling, elicitation and roots`));
      if (live.controller.signal.aborted) return Promise.reject(live.controller.signal.reason);
      let key = typeof inputKey === "string" ? inputKey : `${kind}-${++live.asked}`;
      while (typeof inputKey !== "string" && live.used.has(key)) key = `${kind}-${++live.asked}`;
      if (key === "" || key.length > 128 || live.used.has(key)) return Promise.reject(new TypeError(`inputKey ${JSON.stringify(key)} must be 1-128 characters and unique over the task's life`));
      live.used.add(key);
      const request = (params === undefined ? { method } : { method, params }) as InputRequest;
      return new Promise((resolve, reject) => {
        live.inputs.set(key, { request, resolve, reject, inFlight: false });
        signal?.addEventListener("abort", () => {
          if (live.inputs.delete(key)) void syncInputs(live).catch(() => undefined);
          reject(signal.reason);
        }, { once: true });
        syncInputs(live).catch((error: unknown) => host.logger.warn(`Task ${live.id}: input request not stored`, error));
      });
    },

    /**
     * Answers outstanding input requests of a live task; unknown and already answered keys are
     * ignored, a malformed answer is -32602. Resolves once the store reflects the answers.
     */
    async answer(live: LiveTask, responses: { readonly [key: string]: unknown }): Promise<void> {
      const answered: [PendingInput, unknown][] = [];
      for (const [key, value] of Object.entries(responses)) {
        const input = live.inputs.get(key);
        if (input === undefined) continue;
        answered.push([input, checkAnswer(input.request.method, key, value)]);
      }
      if (answered.length === 0) return;
      for (const [key, input] of [...live.inputs]) if (answered.some(([a]) => a === input)) live.inputs.delete(key);
      await syncInputs(live);
      for (const [input, value] of answered) input.resolve(value);
    },

    /** The outstanding inputs of a live task not yet sent on a `tasks/result` stream (2025-11-25). */
    unsent(live: LiveTask): [string, PendingInput][] {
      return [...live.inputs].filter(([, input]) => !input.inFlight);
    },

    /** Cancels a task; the record after the attempt (unchanged when it was terminal already), or undefined when gone. */
    async cancel(record: TaskRecord): Promise<TaskRecord | undefined> {
      const live = lives.get(record.taskId);
      const changed = await patch(live, record.taskId, { status: "cancelled", statusMessage: "The task was cancelled by request.", inputRequests: {} });
      if (changed !== undefined && live !== undefined) {
        const reason = new JsonRpcError(JsonRpcErrorCode.InternalError, "The task was cancelled");
        live.controller.abort(reason);
        release(live, reason);
      }
      return changed ?? (await store.get(record.taskId));
    },

    /** The TTL of a running task elapsed: its work is stopped and the task forgotten. */
    async expire(live: LiveTask): Promise<void> {
      const reason = new JsonRpcError(JsonRpcErrorCode.InternalError, "The task's TTL elapsed");
      live.controller.abort(reason);
      release(live, reason);
      await store.delete(live.id).catch((error: unknown) => host.logger.warn(`Task ${live.id}: not deleted at expiry`, error));
    },

    /** Resolves on the next change of the task (at most one poll interval when it runs elsewhere), or when `signal` aborts. */
    changed(taskId: string, signal: AbortSignal): Promise<void> {
      return new Promise((resolve) => {
        const live = lives.get(taskId);
        const done = (): void => {
          live?.watchers.delete(done);
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = setTimeout(done, pollIntervalMs);
        live?.watchers.add(done);
        signal.addEventListener("abort", done, { once: true });
      });
    },
    isTerminal,
  };
}

/** The runtime of a server's tasks. */
export type TaskRuntime = ReturnType<typeof createTaskRuntime>;
