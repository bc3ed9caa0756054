/**
 * `callTools`: runs tool calls concurrently, each with its own timeout, and returns one
 * outcome per call in the order given, whatever order they finish in. Aborting the batch
 * aborts every call. This is what an agent runner does with the tool calls of one model turn.
 */
import { RequestError } from "@proto/jsonrpc";
import type { ProgressUpdate } from "./request-options";
import { checkTimeout, startDeadline } from "./deadline";

/** One call of a batch. */
export interface ToolCall {
  /** The MCP tool name. */
  readonly name: string;
  /** The tool's arguments. */
  readonly arguments?: { readonly [key: string]: unknown };
  /** This call's timeout in milliseconds (0: none); overrides the batch's `timeoutMs`. */
  readonly timeoutMs?: number;
  /** Receives this call's progress; progress also restarts its timeout unless the batch says otherwise. */
  readonly onProgress?: (progress: ProgressUpdate) => void;
}

/** What `callTools` hands each call to: a client, or anything with the same `callTool`. */
export interface ToolCaller<R> {
  /**
   * Runs one call. `callTools` owns the timing: it passes `timeoutMs: 0` (meaning "no
   * timeout of your own") and aborts `signal` on timeout or when the batch is aborted.
   */
  callTool(
    name: string,
    args: { readonly [key: string]: unknown } | undefined,
    options: { readonly signal: AbortSignal; readonly timeoutMs: 0; readonly onProgress?: (progress: ProgressUpdate) => void },
  ): Promise<R>;
}

/** Options of a batch. */
export interface CallToolsOptions {
  /** Aborting it aborts every running call and settles every unfinished one as `ABORTED`. */
  readonly signal?: AbortSignal;
  /** Timeout of each call in milliseconds unless the call sets its own; 0: none. Default 60,000. */
  readonly timeoutMs?: number;
  /** Most calls running at once. Default: all of them. */
  readonly concurrency?: number;
  /** Progress restarts a call's timeout. Default true. */
  readonly resetTimeoutOnProgress?: boolean;
  /** A cap on each call's duration that progress never extends; 0: none. Default none. */
  readonly maxTotalTimeoutMs?: number;
}

/** The outcome of one call, at the same index as the call. */
export type ToolCallOutcome<R> =
  | { readonly ok: true; readonly call: ToolCall; readonly result: R }
  | { readonly ok: false; readonly call: ToolCall; readonly error: unknown };

function checkBatch(calls: readonly ToolCall[], options: CallToolsOptions): number {
  if (!Array.isArray(calls)) throw new TypeError("callTools(caller, calls): calls must be an array of { name, arguments }");
  for (const [i, call] of calls.entries()) {
    if (typeof call?.name !== "string") throw new TypeError(`callTools: calls[${i}].name must be a string`);
    checkTimeout(`calls[${i}].timeoutMs`, call.timeoutMs);
  }
  checkTimeout("timeoutMs", options.timeoutMs);
  checkTimeout("maxTotalTimeoutMs", options.maxTotalTimeoutMs);
  const concurrency = options.concurrency ?? Infinity;
  if (!(concurrency >= 1)) throw new TypeError(`concurrency must be >= 1, got ${String(options.concurrency)}`);
  return concurrency;
}

/**
 * Starts one call with its deadline and progress forwarding; `settle` receives its outcome
 * (possibly more than once: the batch keeps the first). Returns the call's abort controller.
 */
function runOne<R>(
  caller: ToolCaller<R>,
  call: ToolCall,
  options: CallToolsOptions,
  isSettled: () => boolean,
  settle: (outcome: ToolCallOutcome<R>) => void,
): AbortController {
  const aborter = new AbortController();
  const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 60_000;
  const deadline = startDeadline({ timeoutMs, maxTotalTimeoutMs: options.maxTotalTimeoutMs }, (kind) => {
    const error = new RequestError("TIMEOUT", "tools/call", kind === "idle"
      ? `Tool call "${call.name}" timed out after ${timeoutMs} ms without a result or progress; raise timeoutMs for slow tools`
      : `Tool call "${call.name}" exceeded maxTotalTimeoutMs (${String(options.maxTotalTimeoutMs)} ms)`);
    aborter.abort(error);
    settle({ ok: false, call, error });
  });
  const resets = options.resetTimeoutOnProgress !== false;
  const onProgress = (progress: ProgressUpdate): void => {
    if (isSettled()) return;
    if (resets) deadline.reset();
    call.onProgress?.(progress);
  };
  let promise: Promise<R>;
  try {
    promise = Promise.resolve(caller.callTool(call.name, call.arguments, { signal: aborter.signal, timeoutMs: 0, onProgress }));
  } catch (error) {
    promise = Promise.reject(error);
  }
  promise.then(
    (result) => settle({ ok: true, call, result }),
    (error: unknown) => settle({ ok: false, call, error }),
  ).finally(() => deadline.clear());
  return aborter;
}

/**
 * Runs `calls` on `caller` concurrently (at most `concurrency` at once) and resolves with one
 * outcome per call, in call order. It never rejects because a call failed: a failed, timed-out
 * or aborted call is an outcome with `ok: false` (`RequestError` code `TIMEOUT` or `ABORTED`
 * for the last two). Each call settles exactly once, even if the caller ignores its signal.
 * A result with `isError: true` is a successful outcome: inspect `result.isError`.
 */
export function callTools<R>(
  caller: ToolCaller<R>,
  calls: readonly ToolCall[],
  options: CallToolsOptions = {},
): Promise<ToolCallOutcome<R>[]> {
  const concurrency = checkBatch(calls, options);
  const outcomes = new Array<ToolCallOutcome<R>>(calls.length);
  let next = 0;
  let running = 0;
  let settled = 0;
  const aborters = new Map<number, AbortController>();
  return new Promise((resolve) => {
    function settle(index: number, outcome: ToolCallOutcome<R>): void {
      if (outcomes[index] !== undefined) return;
      outcomes[index] = outcome;
      settled++;
      if (aborters.delete(index)) running--;
      if (settled === calls.length) {
        options.signal?.removeEventListener("abort", abortAll);
        resolve(outcomes);
      } else pump();
    }
    function abortAll(): void {
      const reason: unknown = options.signal?.reason;
      for (const [index, aborter] of [...aborters]) {
        const call = calls[index] as ToolCall;
        aborter.abort(reason);
        settle(index, { ok: false, call, error: new RequestError("ABORTED", "tools/call", `Tool call "${call.name}" was aborted with its batch`, { cause: reason }) });
      }
      const from = next;
      next = calls.length;
      for (let i = from; i < calls.length; i++) {
        const call = calls[i] as ToolCall;
        settle(i, { ok: false, call, error: new RequestError("ABORTED", "tools/call", `Tool call "${call.name}" was aborted before it started`, { cause: reason }) });
      }
    }
    function start(index: number): void {
      running++;
      aborters.set(index, runOne(caller, calls[index] as ToolCall, options, () => outcomes[index] !== undefined, (outcome) => settle(index, outcome)));
    }
    function pump(): void {
      while (running < concurrency && next < calls.length && !options.signal?.aborted) start(next++);
    }
    if (calls.length === 0) return resolve([]);
    if (options.signal?.aborted) return abortAll();
    options.signal?.addEventListener("abort", abortAll, { once: true });
    pump();
  });
}
