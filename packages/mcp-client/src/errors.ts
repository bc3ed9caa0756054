/**
 * Library faults of the client, with stable string codes (listed in the package README).
 * Wire errors from the server arrive as `JsonRpcError`; requests that end without a response
 * (timeout, abort, closed connection) arrive as `RequestError`, both from `@proto/jsonrpc`.
 */
import { brandError } from "@proto/jsonrpc";

/** Stable codes of the client's own errors. */
export const ClientFaultCode = {
  /** The server chose a protocol version this client does not speak; the connection was closed. */
  UnsupportedVersion: "UNSUPPORTED_VERSION",
  /** The server did not declare the capability a call needs (for example `tools/call` without `tools`). */
  CapabilityMissing: "CAPABILITY_MISSING",
  /** The client is not connected and has no transport factory to connect with. */
  NotConnected: "NOT_CONNECTED",
  /** Connecting failed (after the configured retries). `cause` holds the last attempt's error. */
  ConnectFailed: "CONNECT_FAILED",
  /** Connecting took longer than `connectTimeoutMs`. */
  ConnectTimeout: "CONNECT_TIMEOUT",
  /** The client was closed by its owner; create a new one to talk to the server again. */
  Closed: "CLIENT_CLOSED",
  /** A tool's `structuredContent` does not match its `outputSchema` (or is missing). */
  OutputSchemaViolation: "OUTPUT_SCHEMA_VIOLATION",
  /** A tool's `outputSchema` cannot be compiled. */
  InvalidOutputSchema: "INVALID_OUTPUT_SCHEMA",
  /** A tool call answered with `isError: true` (thrown only by the throwing helpers). */
  ToolError: "TOOL_ERROR",
  /** The server answered with a result that does not have the shape the method requires. */
  InvalidResult: "INVALID_RESULT",
  /** A 2026-07-28 server asked for input (`input_required`) this client has no handler for. */
  InputUnavailable: "INPUT_UNAVAILABLE",
  /** A 2026-07-28 server kept asking for input past the client's bound on rounds (`maxInputRounds`). */
  InputRoundsExceeded: "INPUT_ROUNDS_EXCEEDED",
  /** A task ended `cancelled` (or was cancelled with `cancel()` before it finished). */
  TaskCancelled: "TASK_CANCELLED",
  /** The server no longer knows a task (it expired after its ttlMs, was deleted, or never existed). `cause` holds the server's error. */
  TaskNotFound: "TASK_NOT_FOUND",
  /** A task handle was detached; the server's work goes on (resume it with `client.resumeTask`). */
  TaskDetached: "TASK_DETACHED",
} as const;

/** One of the client's stable error codes. */
export type ClientFaultCode = (typeof ClientFaultCode)[keyof typeof ClientFaultCode];

/** @deprecated Renamed `ClientFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const ClientErrorCode = ClientFaultCode;
/** @deprecated Renamed `ClientFaultCode`. */
export type ClientErrorCode = ClientFaultCode;

/** An error raised by the client itself (never sent on the wire). Switch on `code`, not on the message. */
export class McpClientError extends Error {
  override readonly name: string = "McpClientError";
  /** A stable string code from `ClientFaultCode`. */
  readonly code: ClientFaultCode;
  /** Structured detail (validation errors, supported versions), when there is any. */
  readonly detail: unknown;

  /** Creates a client fault; `message` says what happened and what to do. */
  constructor(code: ClientFaultCode, message: string, options?: { cause?: unknown; detail?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.detail = options?.detail;
  }
}

brandError(McpClientError, "@proto/mcp-client:McpClientError");

/** True when `error` is an `McpClientError` (also one made by another copy of this package: its CJS or ESM build), optionally with the given code. */
export function isMcpClientError(error: unknown, code?: ClientFaultCode): error is McpClientError {
  return error instanceof McpClientError && (code === undefined || error.code === code);
}

/**
 * A tool call answered with `isError: true`, thrown by `callToolOrThrow`. The message is the
 * tool's own text; `result` is the whole result.
 */
export class ToolCallError extends McpClientError {
  override readonly name = "ToolCallError";
  /** The tool that failed. */
  readonly tool: string;
  /** The result the server returned (with `isError: true`). */
  readonly result: { readonly content: readonly unknown[]; readonly isError?: boolean };

  /** Creates the error from the failed result. */
  constructor(tool: string, result: { readonly content: readonly unknown[]; readonly isError?: boolean }) {
    const text = result.content
      .map((block) => (typeof block === "object" && block !== null && (block as { type?: unknown }).type === "text" ? String((block as { text?: unknown }).text) : ""))
      .filter((t) => t !== "")
      .join("\n");
    super(ClientFaultCode.ToolError, `Tool "${tool}" failed: ${text === "" ? "(no text content)" : text.slice(0, 2000)}`, { detail: result });
    this.tool = tool;
    this.result = result;
  }
}
