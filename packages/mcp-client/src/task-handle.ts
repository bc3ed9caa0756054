/**
 * One watched task (2025-11-25 basic/utilities/tasks; ext-tasks specification/draft): polls
 * `tasks/get` at the server's `pollIntervalMs` (clamped to the client's bounds), wakes early on
 * a push, answers input requests, fetches the outcome, cancels. The era of each step is the
 * era of the connection at that moment (`task-wire.ts`), so a reconnect in between is fine.
 *
 * Input: on 2025-11-25 the server sends its requests (carrying the related-task `_meta`) while
 * the client waits on `tasks/result`, which the client opens as soon as it sees
 * `input_required`; the client's usual handlers answer them. On 2026-07-28 the open requests
 * come inline in `tasks/get` and `task-input.ts` answers them.
 *
 * Connection faults (a timeout, a dropped connection, a failed reconnect) are retried at the
 * polling interval, five in a row at most; anything else ends the watch with its error.
 */
import { JsonRpcFaultCode, RequestError } from "@proto/jsonrpc";
import type { CallToolResult } from "@proto/mcp-protocol";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import type { TaskEvents, TaskInfo, ToolTask } from "./task-types";
import type { TaskSnapshot } from "./task-wire";
import { createEmitter } from "./emitter";
import { ClientFaultCode, McpClientError } from "./errors";
import { createInputAnswerer } from "./task-input";
import { cancelTask, getTask, isTerminal, isTransient, taskPayload } from "./task-wire";

/** Consecutive connection faults a watch rides out before it gives up. */
const MAX_TRANSIENT_FAILURES = 5;

/** The shortest wait between polls, whatever the server suggests. */
const MIN_POLL_INTERVAL_MS = 10;

/** Where a watch starts: the task the call made (or the id given to `resumeTask`). */
export interface TaskStart {
  readonly taskId: string;
  readonly snapshot?: TaskSnapshot;
  readonly immediateResponse?: string;
}

function changed(before: TaskInfo | undefined, after: TaskInfo): boolean {
  return before === undefined || before.status !== after.status || before.statusMessage !== after.statusMessage;
}

/** A handle for a call the server answered directly. */
export function finishedTask(result: CallToolResult): ToolTask {
  const done = Promise.resolve(result);
  return {
    taskId: undefined,
    task: undefined,
    immediateResponse: undefined,
    on: createEmitter<TaskEvents>(() => {}).on,
    result: () => done,
    cancel: async () => undefined,
    detach() {},
  };
}

/** Starts watching a task; the watch runs until the task ends, `cancel()`, `detach()`, the caller's signal, or the client's close. */
export function watchTask(core: Core, start: TaskStart, options: RequestOptions | undefined): ToolTask {
  const { taskId } = start;
  const emitter = createEmitter<TaskEvents>((error) => core.logger.error(`A task "status" listener threw`, error));
  const aborter = new AbortController();
  // Requests that must outlive the watch (the cancel itself): no watch signal.
  const detached: RequestOptions = { timeoutMs: options?.timeoutMs ?? 10_000 };
  let info: TaskInfo | undefined;
  let done = false;
  let wake: (() => void) | undefined;
  let resolveResult!: (result: CallToolResult) => void;
  let rejectResult!: (error: unknown) => void;
  const outcome = new Promise<CallToolResult>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  // Nobody may ever ask for the result; a rejection must not surface as unhandled.
  outcome.catch(() => {});

  const step = (timeoutMs?: number): RequestOptions => ({
    signal: aborter.signal,
    ...(timeoutMs === undefined ? (options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) : { timeoutMs }),
    ...(options?.meta === undefined ? {} : { meta: options.meta }),
  });

  function finish(): void {
    done = true;
    stopWatch();
    options?.signal?.removeEventListener("abort", onAbort);
    aborter.abort(new Error("task watch ended"));
    wake?.();
  }
  function settle(result: CallToolResult): void {
    if (done) return;
    finish();
    resolveResult(result);
  }
  function fail(error: unknown): void {
    if (done) return;
    finish();
    rejectResult(error);
  }
  function cancelled(): McpClientError {
    return new McpClientError(ClientFaultCode.TaskCancelled, `Task "${taskId}" was cancelled${info?.statusMessage === undefined ? "" : `: ${info.statusMessage}`}`, { detail: info });
  }

  const inputs = createInputAnswerer({ core, taskId, signal: aborter.signal, step, done: () => done, wake: () => wake?.(), fail, detached });

  function see(next: TaskInfo): void {
    const before = info;
    info = next;
    if (changed(before, next)) emitter.emit("status", next);
  }

  /** Settles from a 2026-07-28 detailed task, or starts answering its input requests; true when settled. */
  function seeModern(snapshot: TaskSnapshot): boolean {
    if (snapshot.result !== undefined) settle(snapshot.result);
    else if (snapshot.error !== undefined) fail(snapshot.error);
    else if (snapshot.info.status === "cancelled") fail(cancelled());
    else if (snapshot.inputRequests !== undefined) inputs.answer(snapshot.inputRequests);
    return done;
  }

  /** 2025-11-25: the outcome comes from `tasks/result`, which also carries the server's input requests. */
  async function fetchPayload(): Promise<void> {
    let payload: CallToolResult;
    try {
      payload = await taskPayload(core, taskId, step(0));
    } catch (error) {
      if (done || isTransient(error)) throw error;
      await refresh();
      return fail(error);
    }
    await refresh();
    if (info?.status === "cancelled") return fail(cancelled());
    settle(payload);
  }

  /** One more look after the outcome, so `task` and the events end on the final status (best effort). */
  async function refresh(): Promise<void> {
    try {
      see((await getTask(core, taskId, step())).info);
    } catch {
      // The outcome is what matters; a server may drop a task once its result was fetched.
    }
  }

  /** One poll; true when the watch is over. */
  async function poll(): Promise<boolean> {
    const snapshot = await getTask(core, taskId, step());
    if (done) return true;
    see(snapshot.info);
    if (snapshot.modern) return seeModern(snapshot);
    const { status } = snapshot.info;
    if (status === "cancelled") fail(cancelled());
    else if (isTerminal(status) || status === "input_required") await fetchPayload();
    return done;
  }

  function pause(): Promise<void> {
    const suggested = info?.pollIntervalMs ?? core.taskOptions.defaultPollIntervalMs;
    const ms = Math.min(Math.max(suggested, MIN_POLL_INTERVAL_MS), core.taskOptions.maxPollIntervalMs);
    return new Promise((resolve) => {
      const timer = setTimeout(up, ms);
      function up(): void {
        clearTimeout(timer);
        if (wake === up) wake = undefined;
        resolve();
      }
      wake = up;
    });
  }

  async function run(): Promise<void> {
    let failures = 0;
    if (start.snapshot !== undefined && !(await first(start.snapshot))) return;
    while (!done) {
      try {
        if (await poll()) return;
        failures = 0;
      } catch (error) {
        if (done) return;
        if (!isTransient(error) || ++failures > MAX_TRANSIENT_FAILURES) return fail(error);
      }
      await pause();
    }
  }

  /** The state the creating answer carried: wait one interval before the first poll (2026 may already settle). */
  async function first(snapshot: TaskSnapshot): Promise<boolean> {
    see(snapshot.info);
    if (snapshot.modern && seeModern(snapshot)) return false;
    await pause();
    return !done;
  }

  /** After a cancel that did not report `cancelled`: a task that had already finished keeps its outcome. */
  async function settleIfFinished(own: RequestOptions): Promise<void> {
    const after = await getTask(core, taskId, own).catch(() => undefined);
    if (after === undefined || done) return;
    see(after.info);
    if (after.modern) seeModern(after);
    else if (after.info.status !== "cancelled" && isTerminal(after.info.status)) await fetchPayload().catch(fail);
  }

  const onAbort = (): void => {
    if (done) return;
    void cancelTask(core, taskId, detached).catch(() => {});
    fail(new RequestError(JsonRpcFaultCode.Aborted, "tools/call", `The task "${taskId}" was aborted by the caller; it was asked to cancel`, { cause: options?.signal?.reason }));
  };

  const stopWatch = core.tasks.watch(taskId, {
    push(snapshot) {
      if (done) return;
      see(snapshot.info);
      if (snapshot.modern) seeModern(snapshot);
      wake?.();
    },
    stop: fail,
  });
  if (options?.signal?.aborted) onAbort();
  else options?.signal?.addEventListener("abort", onAbort, { once: true });
  void run().catch(fail);

  return {
    taskId,
    get task() {
      return info;
    },
    immediateResponse: start.immediateResponse,
    on: emitter.on,
    result: () => outcome,
    async cancel() {
      if (done) return info;
      // Its own requests, not the watch's: a poll that settles meanwhile must not abort them.
      const answer = await cancelTask(core, taskId, detached);
      if (done) return info;
      if (answer !== undefined) see(answer);
      // The task may have ended before the cancel took effect: look once, and keep a finished outcome.
      if (answer?.status !== "cancelled") await settleIfFinished(detached);
      fail(cancelled());
      return info;
    },
    detach() {
      fail(new McpClientError(ClientFaultCode.TaskDetached, `The watch of task "${taskId}" was detached; resume it with client.resumeTask("${taskId}")`, { detail: { taskId } }));
    },
  };
}
