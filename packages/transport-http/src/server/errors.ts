import { brandError } from "@proto/jsonrpc";

/**
 * The stable string codes of the server side of this package (listed in the package README):
 * the refusal codes a client reads in `error.data.code` of a refusal body, and the local faults
 * (`HttpServerError`) a logger or a session's close reason carries. One table for the side, so
 * no string means two things.
 */

/** Stable string codes of the Streamable HTTP and WebSocket server side. */
export const HttpFaultCode = {
  /** A transport-level refusal (bad header, wrong method, limit), sent as `error.data.code` with JSON-RPC code -32000. */
  Refused: "REFUSED",
  /** The session id is unknown, expired, or belongs to someone else; sent as `error.data.code` with JSON-RPC code -32001. */
  SessionNotFound: "SESSION_NOT_FOUND",
  /** The stream a reply was meant for is gone (the client disconnected and it cannot be resumed). */
  StreamGone: "STREAM_GONE",
  /** The session ended: deleted by the client, expired, or the handler closed. */
  SessionClosed: "SESSION_CLOSED",
  /** The session was idle longer than `sessionIdleTtlMs`. */
  SessionExpired: "SESSION_EXPIRED",
  /** The live sessions reached `maxSessions` and this one, the least recently used of the holder with the most sessions, was closed to make room. */
  SessionEvicted: "SESSION_EVICTED",
  /** Server-initiated messages waited for a GET stream and the queue (`maxQueuedMessages`) is full. */
  QueueFull: "QUEUE_FULL",
  /** The `connect` callback threw or did not start the transport. */
  ConnectFailed: "CONNECT_FAILED",
  /** The `authenticate` hook threw; the request was answered 503 (JWKS unreachable) or 500. */
  AuthFailed: "AUTH_FAILED",
  /** The JWKS could not be fetched (network, timeout, bad document): requests are answered 503, not 401. */
  JwksUnavailable: "JWKS_UNAVAILABLE",
  /** The event store threw; the event could not be stored or replayed. */
  EventStoreFailed: "EVENT_STORE_FAILED",
  /** The shared session store or message bus (`shared` option) threw; the request was answered 503. */
  SharedStoreFailed: "SHARED_STORE_FAILED",
} as const;

/** One of the stable server-side codes. */
export type HttpFaultCode = (typeof HttpFaultCode)[keyof typeof HttpFaultCode];

/** The codes an HTTP refusal body carries in `error.data.code`. */
export type HttpRefusalCode = typeof HttpFaultCode.Refused | typeof HttpFaultCode.SessionNotFound;

/** The codes of an `HttpServerError` (local faults, never a refusal body). */
export type HttpServerFaultCode = Exclude<HttpFaultCode, HttpRefusalCode>;

/** @deprecated Merged into `HttpFaultCode` (one table of string codes per side); this alias goes in the next major. */
export const HttpServerFault = HttpFaultCode;
/** @deprecated Use `HttpServerFaultCode` (the codes of an `HttpServerError`), or `HttpFaultCode` for any server-side code. */
export type HttpServerFault = HttpServerFaultCode;

/** A server-side fault with a stable `code`. */
export class HttpServerError extends Error {
  override readonly name = "HttpServerError";
  /** A stable string code from `HttpFaultCode` (never `REFUSED` or `SESSION_NOT_FOUND`: those are refusal bodies). */
  readonly code: HttpServerFaultCode;
  /** Creates a fault with a stable code and a message that says what happened and what to do. */
  constructor(code: HttpServerFaultCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

brandError(HttpServerError, "@proto/transport-http:HttpServerError");

/** True for an `HttpServerError`, also one made by another copy of this package (its CJS or ESM build). */
export function isHttpServerError(value: unknown): value is HttpServerError {
  return value instanceof HttpServerError;
}
