/**
 * Options and events of the Streamable HTTP client transport, and their defaults.
 */
import type { HttpAuth } from "./http-auth";

/** The `fetch` the transports call: the global one by default, any compatible one (undici, a test double) otherwise. */
export type FetchLike = (input: URL, init: RequestInit) => Promise<Response>;

/** Extra request headers: fixed, or computed before every request. */
export type HeadersOption = HeadersInit | (() => HeadersInit | Promise<HeadersInit>);

/** How SSE streams are resumed after they drop (MCP 2025-11-25, basic/transports, "Resumability and Redelivery"). */
export interface ReconnectOptions {
  /** Delay before the first attempt, in ms, when the server sent no `retry`. Default 1,000. */
  readonly initialDelayMs?: number;
  /** Largest delay between attempts, in ms. Default 30,000. */
  readonly maxDelayMs?: number;
  /** Growth of the delay per failed attempt. Default 1.5. */
  readonly factor?: number;
  /** Consecutive failed attempts before a stream is given up; 0 disables reconnection. Default 5. */
  readonly maxRetries?: number;
}

/** The reconnection settings with every default applied. */
export type ResolvedReconnect = Required<ReconnectOptions>;

/** Something the transport did that its owner may want to know (log it, re-subscribe after a new session). */
export type HttpClientEvent =
  /** The server issued a session id (on `initialize`). */
  | { readonly type: "session"; readonly sessionId: string }
  /**
   * The session expired (404) and the transport re-initialized transparently, replaying the
   * `initialize` request and `notifications/initialized` it had seen. Server-side session state
   * (subscriptions, log level) is gone: re-establish it here.
   */
  | {
      readonly type: "reinitialized";
      readonly previousSessionId: string;
      readonly sessionId: string | undefined;
      readonly protocolVersion: string | undefined;
    }
  /** An SSE stream dropped and will be resumed after `delayMs`. */
  | {
      readonly type: "reconnecting";
      readonly stream: "standalone" | "request";
      readonly attempt: number;
      readonly delayMs: number;
      readonly lastEventId: string | undefined;
      readonly cause?: unknown;
    }
  /** The standalone GET stream for server-initiated messages is open, or the server offers none (405). */
  | { readonly type: "standalone-stream"; readonly state: "open" | "unsupported" | "failed"; readonly cause?: unknown }
  /**
   * A modern (2026-07-28) `tools/list` answer held a tool whose `x-mcp-header` annotations are
   * invalid; the tool was dropped from the answer, as the spec requires over HTTP.
   */
  | { readonly type: "tool-rejected"; readonly tool: string; readonly reason: string }
  /** `createHttpClientTransport` fell back to the legacy HTTP+SSE transport (2024-11-05). */
  | { readonly type: "fallback"; readonly status: number };

/** Receives transport events. */
export type HttpClientEventListener = (event: HttpClientEvent) => void;

/** Options of `createStreamableHttpClientTransport`. */
export interface StreamableHttpClientOptions {
  /** Bearer tokens for every request; asked again once after a 401. */
  readonly auth?: HttpAuth;
  /**
   * Extra headers on every request. `Mcp-Session-Id`, `MCP-Protocol-Version`, `Last-Event-ID`,
   * `Content-Type` and `Accept` are the transport's own and are dropped from them; an
   * `Authorization` header here is sent as is unless `auth` supplies a token.
   */
  readonly headers?: HeadersOption;
  /** The `fetch` to use. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Largest accepted message (JSON body or SSE event) in bytes. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest accepted JSON nesting. Default 64. */
  readonly maxDepth?: number;
  /** Most messages accepted in one batch. Default 100. */
  readonly maxBatch?: number;
  /** SSE resumption settings. */
  readonly reconnect?: ReconnectOptions;
  /** Open the standalone GET stream for server-initiated messages after initialization. Default true. */
  readonly standaloneStream?: boolean;
  /** Re-initialize transparently when the session expires (404). Default true. */
  readonly reinitialize?: boolean;
  /** Send DELETE to end the session on `close()`. Default true. */
  readonly terminateOnClose?: boolean;
  /** Resume an existing session: its id (the transport then sends it from the first request). */
  readonly sessionId?: string;
  /** The negotiated protocol version of that session, sent as `MCP-Protocol-Version`. */
  readonly protocolVersion?: string;
  /** Receives every transport event (also available through `subscribe`). */
  readonly onEvent?: HttpClientEventListener;
}

/** Defaults of `ReconnectOptions`. */
export const DEFAULT_RECONNECT: ResolvedReconnect = Object.freeze({
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  factor: 1.5,
  maxRetries: 5,
});

/** Applies the defaults of `ReconnectOptions`, refusing nonsense with a `TypeError`. */
export function resolveReconnect(options: ReconnectOptions | undefined): ResolvedReconnect {
  const resolved = { ...DEFAULT_RECONNECT, ...options };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`reconnect.${name} must be a finite number >= 0, got ${String(value)}`);
    }
  }
  if (resolved.factor < 1) throw new TypeError(`reconnect.factor must be >= 1, got ${resolved.factor}`);
  return resolved;
}

/** The delay before reconnection attempt `attempt` (1-based): the server's `retry` when it sent one, else exponential backoff with a cap. */
export function reconnectDelay(settings: ResolvedReconnect, attempt: number, serverRetryMs: number | undefined): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  const grown = settings.initialDelayMs * settings.factor ** Math.max(0, attempt - 1);
  return Math.min(settings.maxDelayMs, grown);
}
