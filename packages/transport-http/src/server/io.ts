/**
 * The seam between the Streamable HTTP core and a runtime: what the core needs from one
 * HTTP request (`HttpIn`) and the answer it returns (`HttpAnswer`), as a Web `fetch` handler
 * does: the core cannot forget to answer, because every path returns one. The Web adapter
 * (`Request` → `Response`) and the Node adapter (`IncomingMessage`/`ServerResponse`) each turn
 * an answer into a response in a few lines, so the Node hot path never builds Web streams.
 */

/** The parts of an HTTP request an `authenticate` hook may read. A Web `Request` satisfies it. */
export interface HttpRequestLike {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** The absolute request URL. */
  readonly url: string;
  /** Request headers; `get` is case-insensitive and returns null when absent. */
  readonly headers: { get(name: string): string | null };
}

/** How reading a request body ended (`consumed`: a framework read the stream and did not pass the body on). */
export type BodyRead =
  | { readonly ok: true; readonly body: Uint8Array }
  | { readonly ok: false; readonly reason: "too-large" | "aborted" | "timeout" | "consumed" };

/** One inbound HTTP request, as the core sees it. */
export interface HttpIn {
  /** The HTTP method, upper-case. */
  readonly method: string;
  /** The URL path, without query. */
  readonly path: string;
  /** One header by lower-case name, or undefined. */
  header(name: string): string | undefined;
  /** All headers as a plain object with lower-case names (for `ExchangeInfo.headers`). */
  headers(): { [name: string]: string };
  /** Reads the whole body, refusing more than `maxBytes`; at once when it was read before (a framework's body). Called at most once. */
  readBody(maxBytes: number): BodyRead | Promise<BodyRead>;
  /** The local socket address, or undefined when the runtime does not say (treated as loopback: fail-closed). */
  readonly localAddress: string | undefined;
  /** The peer's address, or undefined when the runtime does not say (anonymous sessions then share one fair-share group). */
  readonly remoteAddress: string | undefined;
  /** The request for the `authenticate` hook. */
  readonly request: HttpRequestLike;
  /** Registers the one watcher told if the client goes away before the response ends. */
  onAbort(watcher: AbortWatcher): void;
}

/** Told when the client of a request goes away before its response ended (an object, not a closure: one per POST). */
export interface AbortWatcher {
  clientGone(): void;
}

/** Headers of a response, lower-case names. */
export type OutHeaders = { [name: string]: string };

/** One open SSE connection. */
export interface ConnectionWriter {
  /**
   * Writes text. Returns undefined when the runtime took it at once, else a promise that resolves
   * once it drained (backpressure) and rejects if the connection closed first.
   */
  write(text: string): Promise<void> | undefined;
  /** Ends the response. Idempotent. */
  end(): void;
  /** True once ended by us or closed by the client. */
  readonly closed: boolean;
  /** Registers a callback run once when the connection closes for any reason. */
  onClose(listener: () => void): void;
}

/** A complete answer: status, headers and an optional body. */
export interface FullAnswer {
  readonly status: number;
  readonly headers: OutHeaders;
  readonly body?: string;
}

/**
 * A streamed answer (SSE). The adapter starts the response with `status` and `headers`, then
 * hands its writer to `open`, synchronously; from then on the stream that opened it owns the
 * connection (writes, keep-alives, the end).
 */
export interface StreamAnswer {
  readonly status: number;
  readonly headers: OutHeaders;
  open(connection: ConnectionWriter): void;
}

/** What the core returns for one request. */
export type HttpAnswer = FullAnswer | StreamAnswer;

/** True when `answer` is streamed. */
export function isStreamAnswer(answer: HttpAnswer): answer is StreamAnswer {
  return typeof (answer as Partial<StreamAnswer>).open === "function";
}
