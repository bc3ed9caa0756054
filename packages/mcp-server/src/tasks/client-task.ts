/**
 * Task-augmented requests to the client (MCP 2025-11-25 basic/utilities/tasks, the server as
 * requestor): `sampling/createMessage` and `elicitation/create` sent with `params.task` to a
 * client that declared `capabilities.tasks.requests.{sampling.createMessage, elicitation.create}`.
 * The client answers a `CreateTaskResult`; the server polls `tasks/get` at the task's
 * `pollInterval` (clamped to 10 ms - 60 s) until the task is terminal or needs input, then
 * reads `tasks/result`, which is what the plain request would have answered. Aborting the
 * signal sends `tasks/cancel`. Each request of the exchange has the caller's timeout; the task
 * itself may take as long as the client needs (that is what a task is for).
 * Used by `ctx.sample` / `ctx.elicit` (and the session API) given `{ task: true }` (or
 * `{ task: { ttlMs } }`) in a 2025 session whose client declared the capability; otherwise the
 * request goes the plain way. Never inside a running task or under 2026-07-28 (their input is
 * an input request, which has no task form).
 */
import type { JsonRpcParams, RequestOptions } from "@proto/jsonrpc";
import { isModernProtocolVersion, RequestMethod } from "@proto/mcp-protocol";
import type { ClientCapabilities } from "@proto/mcp-protocol";

/** The `task` option of a client request: true, or the TTL to ask the client for. */
export type ClientTaskOption = boolean | { readonly ttlMs?: number };

const MIN_POLL_MS = 10;
const MAX_POLL_MS = 60_000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** True when the client declared task-augmented `method` requests. */
export function clientRunsAsTask(capabilities: ClientCapabilities, method: string): boolean {
  const requests = (capabilities as { tasks?: { requests?: Record<string, Record<string, unknown> | undefined> } }).tasks?.requests;
  if (method === RequestMethod.SamplingCreateMessage) return isRecord(requests?.sampling?.createMessage);
  if (method === RequestMethod.ElicitationCreate) return isRecord(requests?.elicitation?.create);
  return false;
}

/** The task to ask for, when `task` asks for one and the client of a 2025 session can run `method` as a task; else undefined (a plain request). */
export function clientTaskFor(task: ClientTaskOption | undefined, capabilities: ClientCapabilities, protocolVersion: string | undefined, method: string): ClientTaskOption | undefined {
  if (task === undefined || task === false) return undefined;
  if (protocolVersion === undefined || isModernProtocolVersion(protocolVersion)) return undefined;
  return clientRunsAsTask(capabilities, method) ? task : undefined;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

type Send = (method: string, params?: JsonRpcParams, options?: RequestOptions) => Promise<unknown>;

/** Sends `method` as a task and resolves with its result (see the module comment). */
export async function requestAsClientTask(send: Send, method: string, params: JsonRpcParams | undefined, task: ClientTaskOption, options: RequestOptions | undefined): Promise<unknown> {
  const ttl = typeof task === "object" && task.ttlMs !== undefined ? task.ttlMs : undefined;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1)) throw new TypeError(`task.ttlMs must be a positive integer (milliseconds), got ${String(ttl)}`);
  const base = isRecord(params) ? params : {};
  const created = await send(method, { ...base, task: ttl === undefined ? {} : { ttl } } as JsonRpcParams, options);
  if (!isRecord(created) || !isRecord(created.task)) return created; // the client ran it plainly
  const taskId = created.task.taskId;
  if (typeof taskId !== "string") throw new TypeError(`The client answered ${method} with a task without a taskId`);
  const signal = options?.signal;
  const polling: RequestOptions = options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  const cancel = (): void => void send(RequestMethod.TasksCancel, { taskId }, polling).catch(() => undefined);
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    let current: Record<string, unknown> = created.task;
    while (current.status === "working") {
      const interval = typeof current.pollInterval === "number" ? current.pollInterval : 1_000;
      await wait(Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, interval)), signal);
      const got = await send(RequestMethod.TasksGet, { taskId }, { ...polling, ...(signal === undefined ? {} : { signal }) });
      if (!isRecord(got) || typeof got.status !== "string") throw new TypeError(`The client answered tasks/get for ${method} with something that is not a task`);
      current = got;
    }
    if (current.status === "cancelled") throw new Error(`The client cancelled its ${method} task ${taskId}`);
    // input_required: tasks/result waits for a person, with no timeout but the signal
    const blocking: RequestOptions = current.status === "input_required" ? { timeoutMs: 0 } : polling;
    const result = await send(RequestMethod.TasksResult, { taskId }, { ...blocking, ...(signal === undefined ? {} : { signal }) });
    if (!isRecord(result) || !isRecord(result._meta)) return result;
    const { "io.modelcontextprotocol/related-task": _related, ...meta } = result._meta;
    const { _meta: _old, ...rest } = result;
    return Object.keys(meta).length === 0 ? rest : { ...rest, _meta: meta };
  } finally {
    signal?.removeEventListener("abort", cancel);
  }
}
