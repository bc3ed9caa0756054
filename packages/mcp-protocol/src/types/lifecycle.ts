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
 * Result of `server/discover` in its released 2026-07-28 shape (server/discover): server
 * identity travels in `_meta["io.modelcontextprotocol/serverInfo"]`, never in the body.
 */
export interface DiscoverResult extends Result {
  /** The versions a client may pick from, newest first. */
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
  /** Always `"complete"` for this result. */
  readonly resultType: string;
  /** Whether a cache may share the result across callers. */
  readonly cacheScope: "public" | "private";
  /** How long the result may be cached, in milliseconds. */
  readonly ttlMs: number;
  /** Early drafts only; read `_meta["io.modelcontextprotocol/serverInfo"]`. */
  readonly serverInfo?: Implementation;
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
