/**
 * Lifecycle and utilities: initialize, server/discover, ping, cancellation, progress
 * (MCP 2025-11-25 basic/lifecycle, basic/utilities; `server/discover` from 2026-07-28).
 */
import type { Implementation, NotificationParams, ProgressToken, RequestId, RequestParams, Result } from "./base";
import type { ClientCapabilities, ServerCapabilities } from "./capabilities";

/** Params of `initialize`. */
export interface InitializeRequestParams extends RequestParams {
  /** The latest version the client supports. */
  readonly protocolVersion: string;
  readonly capabilities: ClientCapabilities;
  readonly clientInfo: Implementation;
}

/** Result of `initialize`. */
export interface InitializeResult extends Result {
  /** The version the session runs under: the client's when served, else the server's latest. */
  readonly protocolVersion: string;
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation;
  /** How to use the server, for the model's system prompt. */
  readonly instructions?: string;
}

/** Params of `server/discover` (none besides `_meta`). */
export type DiscoverRequestParams = RequestParams;

/**
 * Result of `server/discover`: what a client needs before (or instead of) `initialize`.
 * `resultType`, `cacheScope` and `ttlMs` are the 2026-07-28 cache fields; servers of this
 * toolkit send them so the result is valid under both revisions.
 */
export interface DiscoverResult extends Result {
  /** Every version the server serves, newest first. */
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation;
  readonly instructions?: string;
  /** Always `"complete"` for this result (2026-07-28). */
  readonly resultType?: string;
  /** Whether a cache may share the result across callers (2026-07-28). */
  readonly cacheScope?: "public" | "private";
  /** How long the result may be cached, in milliseconds (2026-07-28). */
  readonly ttlMs?: number;
}

/** Params of `ping` (none besides `_meta`). */
export type PingRequestParams = RequestParams;

/** Params of `notifications/initialized`. */
export type InitializedNotificationParams = NotificationParams;

/** Params of `notifications/cancelled`: the request to stop, and why. */
export interface CancelledNotificationParams extends NotificationParams {
  /** The id of a request previously sent in the same direction. */
  readonly requestId?: RequestId;
  readonly reason?: string;
}

/** Params of `notifications/progress`. */
export interface ProgressNotificationParams extends NotificationParams {
  /** The token the request offered in `_meta.progressToken`. */
  readonly progressToken: ProgressToken;
  /** Increases with every notification, even when the total is unknown. */
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}
