/**
 * The part of a running task that lives on this instance (`runtime.ts` keeps them): its abort
 * signal, the input requests its handler awaits and the watchers of its changes.
 */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { isModernProtocolVersion, RequestMethod } from "@proto/mcp-protocol";
import type { InputRequest } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { ServerSession } from "../session-types";
import type { TaskRecord } from "./store";

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
  /** When the task's TTL elapses (ms since the epoch), or undefined for none. */
  readonly deadline: number | undefined;
}

const KIND: { readonly [method: string]: string } = {
  [RequestMethod.SamplingCreateMessage]: "sample",
  [RequestMethod.ElicitationCreate]: "elicit",
  [RequestMethod.RootsList]: "roots",
};

/** The live part of the task `record` just created for the request of `ctx` (its TTL timer is set by the runtime). */
export function newLiveTask(record: TaskRecord, ctx: RequestContext): LiveTask {
  return {
    id: record.taskId,
    modern: isModernProtocolVersion(ctx.protocolVersion),
    session: ctx.session,
    controller: new AbortController(),
    inputs: new Map(),
    used: new Set(),
    asked: 0,
    watchers: new Set(),
    timer: undefined,
    deadline: record.ttlMs === null ? undefined : record.createdAt + record.ttlMs,
  };
}

/** Resolves the inputs of `live` answered by `responses` (already checked). */
export function deliver(live: LiveTask, responses: { readonly [key: string]: unknown }): void {
  for (const [key, value] of Object.entries(responses)) {
    const input = live.inputs.get(key);
    if (input === undefined) continue;
    live.inputs.delete(key);
    input.resolve(value);
  }
}

/**
 * A request of the task's handler to the client: stored as an input request until answered
 * (`sync` stores the outstanding inputs of `live` and the status they imply).
 */
export function askInput(live: LiveTask, method: string, params: JsonRpcParams | undefined, inputKey: unknown, signal: AbortSignal | undefined, sync: (live: LiveTask) => Promise<unknown>, logger: Logger): Promise<unknown> {
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
      if (live.inputs.delete(key)) void sync(live).catch(() => undefined);
      reject(signal.reason);
    }, { once: true });
    sync(live).catch((error: unknown) => logger.warn(`Task ${live.id}: input request not stored`, error));
  });
}

/** Resolves on the next change of `live` (after one poll interval when it runs elsewhere: `live` undefined), or when `signal` aborts. */
export function waitForChange(live: LiveTask | undefined, signal: AbortSignal, pollIntervalMs: number): Promise<void> {
  return new Promise((resolve) => {
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
}
