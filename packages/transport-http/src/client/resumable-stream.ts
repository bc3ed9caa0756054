/**
 * Consumes one logical SSE stream across connections: reads it, and when the connection
 * drops or the server closes it early (SSE polling), reopens it with `Last-Event-ID` after
 * the server's `retry` or an exponential backoff (MCP 2025-11-25, basic/transports,
 * "Resumability and Redelivery"). Used for POST answer streams and the standalone GET stream.
 */
import type { HttpClientEvent, ResolvedReconnect } from "./options";
import { reconnectDelay } from "./options";
import { HttpClientError, HttpClientFaultCode, isHttpClientError } from "./http-error";
import { discardBody, errorFromResponse } from "./response-body";
import { readSse } from "./sse-reader";

/** How a stream ended for good. */
export type StreamOutcome =
  | { readonly kind: "complete" }
  | { readonly kind: "closed" }
  | { readonly kind: "unsupported" }
  | { readonly kind: "session-gone"; readonly error: HttpClientError }
  | { readonly kind: "failed"; readonly error: unknown };

/** What `runResumableStream` needs. */
export interface ResumableStreamOptions {
  readonly stream: "standalone" | "request";
  /** The URL, for error messages. */
  readonly url: URL;
  /** Sends the GET that opens or resumes the stream. */
  open(lastEventId: string | undefined): Promise<Response>;
  /** One event's data (never empty); returns true when the stream owes nothing more. */
  message(data: string): boolean;
  /** A recoverable fault (an oversized event was skipped). */
  fault(error: unknown): void;
  emit(event: HttpClientEvent): void;
  readonly reconnect: ResolvedReconnect;
  readonly maxEventChars: number;
  /** Aborted when the stream must stop (transport closed, session replaced). */
  readonly signal: AbortSignal;
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

/** True when the response carries an SSE body. */
export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().startsWith("text/event-stream");
}

/** What survives from one connection of a stream to the next. */
interface StreamState {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  complete: boolean;
  lastError: unknown;
}

/** Reads one connection to its end; returns an outcome when the stream is over, else undefined (resume it). */
async function readConnection(response: Response, state: StreamState, options: ResumableStreamOptions): Promise<StreamOutcome | undefined> {
  const standalone = options.stream === "standalone";
  const handlers = {
    event(event: { id: string | undefined; event: string | undefined; data: string }): boolean {
      if (event.id !== undefined) state.lastEventId = event.id;
      if (event.data === "" || (event.event !== undefined && event.event !== "message")) return false;
      state.complete = options.message(event.data);
      return state.complete;
    },
    retry(ms: number): void {
      state.retryMs = ms;
    },
  };
  try {
    if (response.body) await readSse(response.body, handlers, options.maxEventChars);
    state.lastError = undefined;
  } catch (error) {
    if (options.signal.aborted) return { kind: "closed" };
    if (isHttpClientError(error) && error.code === HttpClientFaultCode.Oversized) {
      if (!standalone) return { kind: "failed", error };
      // Replaying from the last id would replay the oversized event: start afresh instead.
      options.fault(error);
      state.lastEventId = undefined;
    }
    state.lastError = error;
  }
  if (state.complete) return { kind: "complete" };
  if (options.signal.aborted) return { kind: "closed" };
  if (state.lastEventId === undefined && !standalone) {
    return { kind: "failed", error: state.lastError ?? lost("the server closed the stream early without an event id to resume from") };
  }
  return undefined;
}

/**
 * Runs a stream until it completes, fails for good or is aborted. `first` is an already
 * open response (a POST's SSE answer); without it the stream is opened first (no delay).
 * Consecutive failed attempts are capped by `maxRetries`; a successful reconnection resets
 * the count (SSE polling reconnects forever while the server keeps answering).
 */
export async function runResumableStream(first: Response | undefined, options: ResumableStreamOptions): Promise<StreamOutcome> {
  const { signal, reconnect } = options;
  const state: StreamState = { lastEventId: undefined, retryMs: undefined, complete: false, lastError: undefined };
  let response = first;
  let attempt = 0;
  let delay = first !== undefined;
  for (;;) {
    if (response) {
      const outcome = await readConnection(response, state, options);
      if (outcome) return outcome;
      response = undefined;
    }
    if (delay) {
      attempt++;
      if (attempt > reconnect.maxRetries) {
        return { kind: "failed", error: state.lastError ?? lost(`the stream could not be resumed after ${reconnect.maxRetries} attempt(s)`) };
      }
      const delayMs = reconnectDelay(reconnect, attempt, state.retryMs);
      const cause = state.lastError === undefined ? {} : { cause: state.lastError };
      options.emit({ type: "reconnecting", stream: options.stream, attempt, delayMs, lastEventId: state.lastEventId, ...cause });
      await sleep(delayMs, signal);
    }
    delay = true;
    if (signal.aborted) return { kind: "closed" };
    const next = await openOnce(options, state.lastEventId);
    if (next instanceof Response) {
      if (signal.aborted) {
        await discardBody(next);
        return { kind: "closed" };
      }
      attempt = 0;
      response = next;
    } else if (next.kind === "retry") state.lastError = next.error;
    else return next;
  }
}

type OpenResult = Response | { readonly kind: "retry"; readonly error: unknown } | Exclude<StreamOutcome, { kind: "complete" }>;

async function openOnce(options: ResumableStreamOptions, lastEventId: string | undefined): Promise<OpenResult> {
  let response: Response;
  try {
    response = await options.open(lastEventId);
  } catch (error) {
    if (options.signal.aborted) return { kind: "closed" };
    if (isHttpClientError(error) && error.code === HttpClientFaultCode.Auth) return { kind: "failed", error };
    return { kind: "retry", error };
  }
  if (response.status === 405) {
    await discardBody(response);
    return { kind: "unsupported" };
  }
  if (response.status === 404) return { kind: "session-gone", error: await errorFromResponse("GET", options.url, response) };
  if (!response.ok) return { kind: "retry", error: await errorFromResponse("GET", options.url, response) };
  if (!isEventStream(response)) {
    await discardBody(response);
    const type = response.headers.get("content-type") ?? "none";
    return {
      kind: "retry",
      error: new HttpClientError(HttpClientFaultCode.BadResponse, `GET ${options.url.href} answered with content type ${type}, not text/event-stream`),
    };
  }
  return response;
}

function lost(why: string): HttpClientError {
  return new HttpClientError(HttpClientFaultCode.StreamLost, `An SSE stream ended before its responses arrived: ${why}`);
}
