/**
 * Options every client request takes: cancellation, timeout, progress
 * (MCP 2025-11-25, basic/utilities "Cancellation", "Progress"; basic/lifecycle "Timeouts").
 */
import type { Meta, ProgressNotificationParams } from "@proto/mcp-protocol";

/** One progress report, as the server sent it (without the token, which the client manages). */
export type ProgressUpdate = Pick<ProgressNotificationParams, "progress" | "total" | "message">;

/** Options of one request to the server. */
export interface RequestOptions {
  /**
   * Aborting it rejects the request with `RequestError` code `ABORTED` and sends
   * `notifications/cancelled` to the server.
   */
  readonly signal?: AbortSignal;
  /**
   * Milliseconds to wait for the response (0: no timeout). Default: the client's
   * `requestTimeoutMs` (60,000). On timeout the request rejects with `RequestError` code
   * `TIMEOUT` and the server is sent `notifications/cancelled`.
   */
  readonly timeoutMs?: number;
  /**
   * Receives `notifications/progress` for this request. Giving a callback makes the client
   * send a progress token; each report restarts the timeout unless `resetTimeoutOnProgress` is false.
   */
  readonly onProgress?: (progress: ProgressUpdate) => void;
  /** Progress restarts the timeout. Default true. */
  readonly resetTimeoutOnProgress?: boolean;
  /** A cap on the request's total duration that progress never extends (0: none). Default: the client's, else none. */
  readonly maxTotalTimeoutMs?: number;
  /** Extra `_meta` to send with the request (the client adds `progressToken` itself). */
  readonly meta?: Meta;
}
