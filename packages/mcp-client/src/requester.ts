/**
 * Sends one request to the server with MCP's per-request behaviour: a progress token when a
 * progress callback is given, a timeout that progress restarts (capped by a total timeout),
 * cancellation by signal (the peer sends `notifications/cancelled`), result shape checks and
 * the observer's request hooks (MCP 2025-11-25, basic/utilities "Progress", "Cancellation";
 * basic/lifecycle "Timeouts").
 */
import { RequestError, type Peer, type TrackedRequest } from "@proto/jsonrpc";
import type { Implementation, ProgressToken } from "@proto/mcp-protocol";
import type { ClientObserver, RequestEndEvent, RequestOutcome } from "./observer";
import type { RequestOptions } from "./request-options";
import { checkResult } from "./result-shapes";
import { checkTimeout } from "./deadline";
import { safeCall } from "./observer";
import { SlowCall } from "./slow-call";

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
  /** Told the request's handle (its JSON-RPC id) before it is sent: a listen stream matches its acknowledgement by it. */
  readonly track?: (handle: TrackedRequest) => void;
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

/** The peer's options of a request on the fast path. */
function fastOptions(options: RequestOptions | undefined, timeoutMs: number, track: Outgoing["track"]): { signal?: AbortSignal; timeoutMs: number; track?: (handle: TrackedRequest) => void } {
  if (track !== undefined) return options?.signal === undefined ? { timeoutMs, track } : { signal: options.signal, timeoutMs, track };
  return options?.signal === undefined ? { timeoutMs } : { signal: options.signal, timeoutMs };
}

function withMeta(params: Outgoing["params"], options: RequestOptions | undefined, token: ProgressToken | undefined): Outgoing["params"] {
  if (options?.meta === undefined && token === undefined) return params;
  // Object.assign and sets, not spreads: in V8 a literal that starts with a spread and then adds
  // keys builds a new hidden class per call (~1.3 µs and garbage, measured).
  const meta: { [key: string]: unknown } = Object.assign({}, params?._meta as object | undefined, options?.meta);
  if (token !== undefined) meta.progressToken = token;
  const next: { [key: string]: unknown } = Object.assign({}, params);
  next._meta = meta;
  return next;
}

/** Creates the requester of one client; progress tokens are unique per requester. */
export function createRequester(config: RequesterOptions): Requester {
  const listeners = new Map<ProgressToken, SlowCall>();
  let nextToken = 1;

  /** The slow path: requests whose timeout progress can restart, or whose total cap is shorter than their timeout. */
  function withDeadline(out: Outgoing, params: Outgoing["params"], token: ProgressToken | undefined, timeoutMs: number, maxTotalTimeoutMs: number): Promise<unknown> {
    const { method, options } = out;
    const resets = token !== undefined && options?.resetTimeoutOnProgress !== false;
    const call = new SlowCall(config, listeners, method, token, timeoutMs, maxTotalTimeoutMs, resets, options?.onProgress);
    if (token !== undefined) listeners.set(token, call);
    const signal = options?.signal;
    const own = out.track;
    const track = own === undefined ? call.track : (handle: TrackedRequest): void => (call.track(handle), own(handle));
    const sent = out.peer.request(method, params, signal === undefined ? { timeoutMs, track } : { signal, timeoutMs, track });
    return sent.then(call.done, call.failed);
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
      // one `then`, no timer of the requester's.
      const raw = token === undefined && (maxTotalTimeoutMs === 0 || (timeoutMs !== 0 && timeoutMs <= maxTotalTimeoutMs))
        ? out.peer.request(method, params, fastOptions(options, timeoutMs, out.track))
        : withDeadline(out, params, token, timeoutMs, maxTotalTimeoutMs);
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
    const call = listeners.get(progressToken);
    if (call === undefined) return;
    call.progress({
      progress: value,
      ...(typeof total === "number" ? { total } : {}),
      ...(typeof message === "string" ? { message } : {}),
    });
  }

  return { send, progress };
}
