/**
 * The faults of the HTTP client transports, with stable string codes (listed in the
 * package README) and messages that say what to do.
 */
import { brandError } from "@proto/jsonrpc";
import type { JsonRpcErrorObject } from "@proto/jsonrpc";

/** Stable codes of `HttpClientError`. */
export const HttpClientFaultCode = {
  /** The server answered with an HTTP error status; `status` (and `rpcError` when the body had one) tell which. */
  HttpStatus: "HTTP_STATUS",
  /** The session expired (404) and could not be re-initialized. */
  SessionExpired: "SESSION_EXPIRED",
  /** The server answered with something the transport cannot read (wrong content type, bad header). */
  BadResponse: "BAD_RESPONSE",
  /** `fetch` itself failed (connection refused, DNS, TLS). */
  Network: "NETWORK",
  /** A message or an SSE event exceeded `maxMessageBytes`. */
  Oversized: "OVERSIZED",
  /** An SSE stream ended before every response it owed had arrived, and could not be resumed. */
  StreamLost: "STREAM_LOST",
  /** The legacy SSE server named a message endpoint on another origin, or none in time. */
  BadEndpoint: "BAD_ENDPOINT",
  /** The token provider failed or returned a value that cannot go in a header. */
  Auth: "AUTH",
  /** The transport is closed. */
  Closed: "CLOSED",
  /** The first POST said the server predates Streamable HTTP, and the legacy HTTP+SSE fallback failed too (`cause` says why; `status` is the POST's). */
  FallbackFailed: "FALLBACK_FAILED",
} as const;

/** One of the stable codes of `HttpClientError`. */
export type HttpClientFaultCode = (typeof HttpClientFaultCode)[keyof typeof HttpClientFaultCode];

/** @deprecated Renamed `HttpClientFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const HttpClientErrorCode = HttpClientFaultCode;
/** @deprecated Renamed `HttpClientFaultCode`. */
export type HttpClientErrorCode = HttpClientFaultCode;

/** Details attached to an `HttpClientError`. */
export interface HttpClientErrorDetails {
  /** The HTTP status, when the server answered. */
  readonly status?: number;
  /** The JSON-RPC error the response body carried, when it had one. */
  readonly rpcError?: JsonRpcErrorObject;
  /** The underlying error (a network failure, an abort). */
  readonly cause?: unknown;
}

/**
 * A local fault of an HTTP client transport: what `send` and `start` reject with.
 * Never sent on the wire.
 */
export class HttpClientError extends Error {
  override readonly name = "HttpClientError";
  /** A stable string code from `HttpClientFaultCode`. */
  readonly code: HttpClientFaultCode;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The JSON-RPC error the response body carried, when it had one. */
  readonly rpcError: JsonRpcErrorObject | undefined;

  /** Creates a fault with a stable code, a message that says what to do, and its details. */
  constructor(code: HttpClientFaultCode, message: string, details: HttpClientErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.status = details.status;
    this.rpcError = details.rpcError;
  }
}

brandError(HttpClientError, "@proto/transport-http:HttpClientError");

/** True for an `HttpClientError`, also one made by another copy of this package (its CJS or ESM build). */
export function isHttpClientError(error: unknown): error is HttpClientError {
  return error instanceof HttpClientError;
}
