import { brandError } from "@proto/jsonrpc";

/**
 * Library faults of the Streamable HTTP server, with stable string codes (listed in the package
 * README). They stay local: the wire only ever sees an HTTP status and a JSON-RPC error.
 */

/** Stable codes of server-side faults. */
export const HttpServerFault = {
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

/** One of the stable server fault codes. */
export type HttpServerFault = (typeof HttpServerFault)[keyof typeof HttpServerFault];

/** A server-side fault with a stable `code`. */
export class HttpServerError extends Error {
  override readonly name = "HttpServerError";
  /** A stable string code from `HttpServerFault`. */
  readonly code: HttpServerFault;
  /** Creates a fault with a stable code and a message that says what happened and what to do. */
  constructor(code: HttpServerFault, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

brandError(HttpServerError, "@proto/transport-http:HttpServerError");

/** True for an `HttpServerError`, also one made by another copy of this package (its CJS or ESM build). */
export function isHttpServerError(value: unknown): value is HttpServerError {
  return value instanceof HttpServerError;
}
