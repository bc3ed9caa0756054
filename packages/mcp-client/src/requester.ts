/**
 * Sends one request to the server with MCP's per-request behaviour: a progress token when a
 * progress callback is given, a timeout that progress restarts (capped by a total timeout),
 * cancellation by signal (the peer sends `notifications/cancelled`), result shape checks and
 * the observer's request hooks (MCP 2025-11-25, basic/utilities "Progress", "Cancellation";
 * basic/lifecycle "Timeouts").
 */
import { RequestError, type Peer } from "@proto/jsonrpc";
import type { Implementation, ProgressToken } from "@proto/mcp-protocol";
import type { ClientObserver, RequestEndEvent, RequestOutcome } from "./observer";
import type { ProgressUpdate, RequestOptions } from "./request-options";
import { checkResult } from "./result-shapes";
import { checkTimeout, startDeadline } from "./deadline";
import { safeCall } from "./observer";

/** What the requester needs from its client. */
export interface RequesterOptions {
  /** Default timeout (0: none). */
  readonly requestTimeoutMs: number;
  /** Default total cap (undefined or 0: none). */
  readonly maxTotalTimeoutMs: number | undefined;
  readonly observer: ClientObserver | undefined;
  /** Receives what hooks and callbacks throw. */
  readonly report: (error: unknown, what: string) => void;
}

/** One request to send. */
export interface Outgoing {
  readonly peer: Peer;
  readonly server: Implementation | undefined;
  readonly method: string;
  readonly params: { readonly [key: string]: unknown } | undefined;
  readonly options: RequestOptions | undefined;
  /** The tool's name, for `tools/call` (observer events). */
  readonly tool?: string;
  /** Tells whether a successful result is a tool error (observer outcome `tool_error`). */
  readonly isToolError?: (result: unknown) => boolean;
  /** A 2026-07-28 request: the result's `resultType` is checked (`input_required` passes through to the MRTR loop). */
  readonly modern?: boolean;
}

/** The requester of one client. */
export interface Requester {
  send(outgoing: Outgoing): Promise<unknown>;
  /** Routes a `notifications/progress` to its request; unknown tokens are ignored. */
  progress(params: unknown): void;
}

/** Most methods (per era) whose result check is kept; a client calling more makes the rest per request. */
const MAX_CHECKS = 64;

/** A timeout as the peer takes it: 0 for none (0, Infinity, or beyond what timers can hold). */
function bounded(ms: number | undefined): number {
  return ms === undefined || !Number.isFinite(ms) || ms > 2_147_483_647 ? 0 : ms;
}

function outcomeOf(error: unknown): RequestOutcome {
  if (error instanceof RequestError) {
    if (error.code === "OVERSIZED") return "error"; // the answer came, too large to read: the connection is fine
    return error.code === "TIMEOUT" ? "timeout" : error.code === "ABORTED" ? "aborted" : "closed";
  }
  return "error";
}

function withMeta(params: Outgoing["params"], options: RequestOptions | undefined, token: ProgressToken | undefined): Outgoing["params"] {
  if (options?.meta === undefined && token === undefined) return params;
  const base = (params?._meta ?? {}) as { readonly [key: string]: unknown };
  const meta = { ...base, ...options?.meta, ...(token === undefined ? {} : { progressToken: token }) };
  return { ...params, _meta: meta };
}

/** Creates the requester of one client; progress tokens are unique per requester. */
export function createRequester(config: RequesterOptions): Requester {
  const listeners = new Map<ProgressToken, (progress: ProgressUpdate) => void>();
  let nextToken = 1;

  /**
   * The slow path, for requests whose timeout progress can restart: a deadline of our own
   * aborts the peer request (the peer then sends the cancellation).
   */
  function withDeadline(out: Outgoing, params: Outgoing["params"], token: ProgressToken | undefined, timeoutMs: number, maxTotalTimeoutMs: number | undefined): Promise<unknown> {
    const { method, options } = out;
    const aborter = new AbortController();
    let timedOut: RequestError | undefined;
    const deadline = startDeadline({ timeoutMs, maxTotalTimeoutMs }, (kind) => {
      timedOut = new RequestError("TIMEOUT", method, kind === "idle"
        ? `Request "${method}" got no response${token === undefined ? "" : " or progress"} within ${timeoutMs} ms; raise timeoutMs if it is expected to take longer`
        : `Request "${method}" exceeded maxTotalTimeoutMs (${String(maxTotalTimeoutMs)} ms)`);
      aborter.abort(timedOut);
    });
    const forward = (): void => aborter.abort(options?.signal?.reason);
    options?.signal?.addEventListener("abort", forward, { once: true });
    if (token !== undefined) {
      const onProgress = options?.onProgress as (progress: ProgressUpdate) => void;
      const resets = options?.resetTimeoutOnProgress !== false;
      listeners.set(token, (progress) => {
        if (resets) deadline.reset();
        safeCall(onProgress, progress, (error) => config.report(error, `the onProgress callback of "${method}"`));
      });
    }
    return out.peer.request(method, params, { signal: aborter.signal, timeoutMs: 0 }).catch((error: unknown) => {
      throw timedOut ?? error;
    }).finally(() => {
      deadline.clear();
      if (token !== undefined) listeners.delete(token);
      options?.signal?.removeEventListener("abort", forward);
    });
  }

  // The result check of each method and era, made once: a request without an observer hook costs
  // one `then` with a shared function, no async frame and no closure of its own.
  const checks = [new Map<string, (raw: unknown) => unknown>(), new Map<string, (raw: unknown) => unknown>()] as const;
  function checkOf(method: string, modern: boolean): (raw: unknown) => unknown {
    const byMethod = checks[modern ? 1 : 0];
    let check = byMethod.get(method);
    if (check === undefined) {
      check = (raw) => checkResult(method, raw, modern);
      if (byMethod.size < MAX_CHECKS) byMethod.set(method, check);
    }
    return check;
  }

  /** The checked result, with the observer's end hook told the outcome. */
  function observed(out: Outgoing, raw: Promise<unknown>, finish: (outcome: RequestOutcome, error?: unknown) => void): Promise<unknown> {
    return raw.then(
      (value) => {
        let result: unknown;
        try {
          result = checkResult(out.method, value, out.modern === true);
        } catch (error) {
          finish(outcomeOf(error), error);
          throw error;
        }
        finish(out.isToolError?.(result) === true ? "tool_error" : "ok");
        return result;
      },
      (error: unknown) => {
        finish(outcomeOf(error), error);
        throw error;
      },
    );
  }

  function send(out: Outgoing): Promise<unknown> {
    const { method, options } = out;
    let finish: ((outcome: RequestOutcome, error?: unknown) => void) | undefined;
    try {
      checkTimeout("timeoutMs", options?.timeoutMs);
      checkTimeout("maxTotalTimeoutMs", options?.maxTotalTimeoutMs);
      if (options?.signal?.aborted) {
        throw new RequestError("ABORTED", method, `Request "${method}" was aborted before it was sent`, { cause: options.signal.reason });
      }
      const token = options?.onProgress === undefined ? undefined : `p${nextToken++}`;
      const timeoutMs = bounded(options?.timeoutMs ?? config.requestTimeoutMs);
      const maxTotalTimeoutMs = bounded(options?.maxTotalTimeoutMs ?? config.maxTotalTimeoutMs);
      const params = withMeta(out.params, options, token);
      finish = observe(out);
      // The fast path (no progress, no shorter total cap) lets the peer time the request:
      // no AbortController per request, which is most of a round trip's cost in Node.
      const raw = token === undefined && (maxTotalTimeoutMs === 0 || (timeoutMs !== 0 && timeoutMs <= maxTotalTimeoutMs))
        ? out.peer.request(method, params, options?.signal === undefined ? { timeoutMs } : { signal: options.signal, timeoutMs })
        : withDeadline(out, params, token, timeoutMs, maxTotalTimeoutMs === 0 ? undefined : maxTotalTimeoutMs);
      return finish === undefined ? raw.then(checkOf(method, out.modern === true)) : observed(out, raw, finish);
    } catch (error) {
      finish?.(outcomeOf(error), error);
      return Promise.reject(error);
    }
  }

  /** Calls the observer's request hook; returns the function that reports the end, if any. */
  function observe(out: Outgoing): ((outcome: RequestOutcome, error?: unknown) => void) | undefined {
    if (config.observer?.request === undefined) return undefined;
    const start = { method: out.method, ...(out.tool === undefined ? {} : { tool: out.tool }), ...(out.server === undefined ? {} : { serverInfo: out.server }) };
    const end = safeCall((e: typeof start) => config.observer?.request?.(e), start, (error) => config.report(error, "observer.request"));
    if (typeof end !== "function") return undefined;
    const began = performance.now();
    return (outcome, error) => {
      const event: RequestEndEvent = { ...start, durationMs: performance.now() - began, outcome, ...(error === undefined ? {} : { error }) };
      safeCall(end, event, (e) => config.report(e, "the observer's request end hook"));
    };
  }

  function progress(params: unknown): void {
    if (typeof params !== "object" || params === null) return;
    const { progressToken, progress: value, total, message } = params as { [key: string]: unknown };
    if ((typeof progressToken !== "string" && typeof progressToken !== "number") || typeof value !== "number") return;
    const listener = listeners.get(progressToken);
    if (listener === undefined) return;
    listener({
      progress: value,
      ...(typeof total === "number" ? { total } : {}),
      ...(typeof message === "string" ? { message } : {}),
    });
  }

  return { send, progress };
}
