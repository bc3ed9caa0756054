/**
 * Errors: `JsonRpcError` for what goes on the wire, and library faults with stable
 * string codes (listed in the package README) for what stays local.
 */
import { brandError } from "./error-brand";
import type { JsonRpcErrorObject, JsonRpcId } from "./types";

/** The numeric wire codes JSON-RPC 2.0 reserves (section 5.1), the `code` of a `JsonRpcError`. */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

/** One of the standard JSON-RPC error codes. */
export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];

/** @deprecated Renamed `JsonRpcErrorCode` (numeric wire codes live in `*ErrorCode` tables); this alias goes in the next major. */
export const ErrorCode = JsonRpcErrorCode;
/** @deprecated Renamed `JsonRpcErrorCode`. */
export type ErrorCode = JsonRpcErrorCode;

/**
 * An error that travels on the wire as `{ code, message, data }`.
 *
 * Throw it from a handler to answer with exactly that error. Anything else a handler throws
 * is turned into -32603 by `JsonRpcError.from`, with a generic message: no stack and no
 * internal message ever reaches the peer.
 */
export class JsonRpcError extends Error {
  override readonly name = "JsonRpcError";
  /** The integer error code. */
  readonly code: number;
  /** Optional structured detail, sent as the error's `data` member. */
  readonly data: unknown;

  /** Creates a wire error; `code` must be an integer. */
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    if (!Number.isInteger(code)) throw new TypeError(`JsonRpcError code must be an integer, got ${String(code)}`);
    this.code = code;
    this.data = data;
  }

  /**
   * Turns anything thrown into a wire error. A `JsonRpcError` passes through unchanged;
   * anything else becomes -32603 "Internal error" (pass `onInternal` to log the original).
   */
  static from(error: unknown, onInternal?: (original: unknown) => void): JsonRpcError {
    if (error instanceof JsonRpcError) return error;
    onInternal?.(error);
    return new JsonRpcError(JsonRpcErrorCode.InternalError, "Internal error");
  }

  /** Rebuilds an error received from the peer (a response's `error` member). */
  static fromObject(object: JsonRpcErrorObject): JsonRpcError {
    return new JsonRpcError(object.code, object.message, object.data);
  }

  /** The `error` member to put on the wire. */
  toObject(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

brandError(JsonRpcError, "@proto/jsonrpc:JsonRpcError");

/** True for a `JsonRpcError`, also one made by another copy of this package (its CJS or ESM build). */
export function isJsonRpcError(value: unknown): value is JsonRpcError {
  return value instanceof JsonRpcError;
}

/** Stable string codes of the local faults of this package (`TransportError`, `RequestError`; never sent on the wire). */
export const JsonRpcFaultCode = {
  /** A frame could not be decoded; it was answered or dropped and the transport goes on. */
  BadFrame: "BAD_FRAME",
  /** A line or message exceeded its size limit and was dropped. */
  Oversized: "OVERSIZED",
  /** A write to the underlying stream failed. */
  WriteFailed: "WRITE_FAILED",
  /** A response arrived for no pending request. */
  UnknownResponse: "UNKNOWN_RESPONSE",
  /** A request did not get a response in time. */
  Timeout: "TIMEOUT",
  /** A request was aborted by its caller's signal. */
  Aborted: "ABORTED",
  /** The connection closed before a response arrived. */
  Closed: "CLOSED",
} as const;

/** One of the stable fault codes. */
export type JsonRpcFaultCode = (typeof JsonRpcFaultCode)[keyof typeof JsonRpcFaultCode];

/** @deprecated Renamed `JsonRpcFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const FaultCode = JsonRpcFaultCode;
/** @deprecated Renamed `JsonRpcFaultCode`. */
export type FaultCode = JsonRpcFaultCode;

/** A recoverable transport fault, reported through `TransportSink.error`. */
export class TransportError extends Error {
  override readonly name = "TransportError";
  /** A stable string code from `JsonRpcFaultCode`. */
  readonly code: JsonRpcFaultCode;
  /**
   * Set on an `OVERSIZED` fault when the dropped frame was a response whose id could be read:
   * a `Peer` fails the request it answers at once (`RequestError` code `OVERSIZED`).
   */
  readonly responseId?: JsonRpcId;
  /** Creates a transport fault with a stable code and a message that says what happened. */
  constructor(code: JsonRpcFaultCode, message: string, options?: { cause?: unknown; responseId?: JsonRpcId }) {
    super(message, options);
    this.code = code;
    if (options?.responseId !== undefined) this.responseId = options.responseId;
  }
}

brandError(TransportError, "@proto/jsonrpc:TransportError");

/** True for a `TransportError`, also one made by another copy of this package. */
export function isTransportError(value: unknown): value is TransportError {
  return value instanceof TransportError;
}

/**
 * A local request that ended without a response: timed out, aborted, its connection closed, or
 * its response was dropped unread because it exceeded this side's size limit (`OVERSIZED`).
 */
export class RequestError extends Error {
  override readonly name = "RequestError";
  /** `TIMEOUT`, `ABORTED`, `CLOSED` or `OVERSIZED`. */
  readonly code: typeof JsonRpcFaultCode.Timeout | typeof JsonRpcFaultCode.Aborted | typeof JsonRpcFaultCode.Closed | typeof JsonRpcFaultCode.Oversized;
  /** The method of the request that failed. */
  readonly method: string;
  /** Creates a request fault; `cause` carries the abort reason or the close reason. */
  constructor(code: RequestError["code"], method: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.method = method;
  }
}

brandError(RequestError, "@proto/jsonrpc:RequestError");

/** True for a `RequestError`, also one made by another copy of this package. */
export function isRequestError(value: unknown): value is RequestError {
  return value instanceof RequestError;
}
