/**
 * The public shape of a `Peer`: request/response correlation, a handler registry,
 * cancellation and timeouts, composed around one `Transport`. `createPeer` in `peer.ts`
 * builds one.
 */
import type { Exchange, ExchangeInfo } from "./transport";
import type { JsonRpcId, JsonRpcParams } from "./types";

/**
 * Where a library sends what it cannot send anywhere else. Never `console` by default.
 * `warn` and `error` are required; `debug` (wire traces) and `info` (lifecycle) are optional,
 * so a `{ warn, error }` object stays a logger.
 */
export interface Logger {
  /** Fine detail: each message on the wire when tracing is on. */
  debug?(message: string, detail?: unknown): void;
  /** Lifecycle: a session opened or closed, a process started. */
  info?(message: string, detail?: unknown): void;
  /** Something went wrong but the connection goes on (a bad frame, an unknown response id). */
  warn(message: string, detail?: unknown): void;
  /** A handler failed with a non-`JsonRpcError`; `detail` is the original error (the wire got -32603). */
  error(message: string, detail?: unknown): void;
}

/** What a request handler receives besides its params. */
export interface RequestContext {
  /** The request's id, as the peer sent it. */
  readonly id: JsonRpcId;
  /** The request's method. */
  readonly method: string;
  /**
   * Aborted when the peer cancels this request (reason: `RequestError` `ABORTED`), when its
   * exchange's stream goes away (the exchange's reason), or when the peer closes (`RequestError`
   * `CLOSED`). Created on first read. A cancelled request's result is never sent.
   */
  readonly signal: AbortSignal;
  /** What the transport knows about the frame this request came in (session, principal, headers). */
  readonly info: ExchangeInfo;
  /** The exchange the request came in on; related messages go back through it. */
  readonly exchange: Exchange;
  /** True when the request arrived inside a JSON-RPC batch (protocols that forbid batches refuse it). */
  readonly inBatch: boolean;
  /**
   * True once the handler has settled (its answer written or dropped). The peer's own contexts
   * always say; a stand-in context (a task's, say) may leave it out. Protocols use it to stop
   * notifications that must refer to a request in progress, such as MCP progress.
   */
  readonly finished?: boolean;
  /** Sends a notification related to this request, on its exchange. */
  notify(method: string, params?: JsonRpcParams): Promise<void>;
  /** Sends a request related to this request, on its exchange, and waits for the response. */
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
}

/** What a notification handler receives besides its params. */
export interface NotificationContext {
  /** The notification's method. */
  readonly method: string;
  /** What the transport knows about the frame this notification came in. */
  readonly info: ExchangeInfo;
}

/**
 * Answers one request. Return the result (or a promise of it); throw a `JsonRpcError` to
 * answer with that error; anything else thrown is answered with -32603 and logged.
 */
export type RequestHandler = (params: JsonRpcParams | undefined, context: RequestContext) => unknown;

/** Handles one notification. Whatever it throws is logged; notifications are never answered. */
export type NotificationHandler = (params: JsonRpcParams | undefined, context: NotificationContext) => void | Promise<void>;

/** Options of one outbound request. */
export interface RequestOptions {
  /** Aborting it rejects the request with `RequestError` code `ABORTED` and sends the cancellation notification, if configured. */
  readonly signal?: AbortSignal;
  /** Milliseconds to wait for the response; 0 means no timeout. Defaults to the peer's `requestTimeoutMs`. */
  readonly timeoutMs?: number;
  /** Send through this exchange (a request related to an inbound one) instead of `transport.send`. */
  readonly via?: Exchange;
  /**
   * Called once, synchronously, before the request is sent, with the id it was given, a
   * function that restarts its timeout and one that gives it up. MCP restarts the timeout on
   * each progress notification (DESIGN.md section 4: "60 s, reset by progress"); a caller with
   * deadlines of its own aborts through the handle instead of an `AbortController` per request.
   */
  readonly track?: (request: TrackedRequest) => void;
}

/** What `RequestOptions.track` receives about an outbound request. */
export interface TrackedRequest {
  /** The id the request was sent with. */
  readonly id: JsonRpcId;
  /**
   * Restarts the request's timeout from now (no effect once it has settled or when it has none).
   * Cheap enough to call on every progress notification: the request's timer is re-armed, not
   * made again, where the runtime's timers can be (Node's `refresh()`).
   */
  resetTimeout(): void;
  /**
   * Gives the request up now, as an abort of its signal would: it rejects with `RequestError`
   * `ABORTED` (`cause`: `reason`) and the cancellation notification is sent, if configured, with
   * `reason`'s message. No effect once the request has settled.
   */
  abort(reason?: unknown): void;
}

/** Options of one outbound notification. */
export interface NotifyOptions {
  /** Send through this exchange instead of `transport.send`. */
  readonly via?: Exchange;
}

/**
 * How the protocol above cancels requests. MCP maps it to `notifications/cancelled`
 * with `{ requestId, reason }`.
 */
export interface CancellationProtocol {
  /** The notification method that carries a cancellation. */
  readonly method: string;
  /** Builds the params of an outbound cancellation. */
  params(id: JsonRpcId, reason?: string): JsonRpcParams;
  /** Reads the cancelled request's id from an inbound cancellation, or `undefined` when it names none. */
  requestId(params: JsonRpcParams | undefined): JsonRpcId | undefined;
  /** Optional: reads the reason of an inbound cancellation, used as the handler signal's abort reason message. */
  reason?(params: JsonRpcParams | undefined): string | undefined;
}

/** Options of `createPeer`. Limits of inbound frames belong to the transport (`DecodeLimits`). */
export interface PeerOptions {
  /** Default timeout of outbound requests in milliseconds; 0 means none. Default 60,000. */
  readonly requestTimeoutMs?: number;
  /** Enables sending and receiving cancellations. Without it, an aborted request is only rejected locally. */
  readonly cancellation?: CancellationProtocol;
  /** Receives faults and the originals of internal errors. Default: discard. */
  readonly logger?: Logger;
}

/** A bidirectional JSON-RPC endpoint over one transport. */
export interface Peer {
  /** Registers the handler of a request method; returns a function that unregisters it. A second handler for the same method throws a `TypeError`. */
  handle(method: string, handler: RequestHandler): () => void;
  /** Registers the handler of a notification method; returns a function that unregisters it. */
  handleNotification(method: string, handler: NotificationHandler): () => void;
  /**
   * Sends a request (ids are numbers from 1) and resolves with its result. Rejects with
   * `JsonRpcError` (the peer's error), `RequestError` (`TIMEOUT`, `ABORTED`, `CLOSED`), or the
   * error the transport's `send` (or the exchange's `reply`) rejected with. Throws a
   * `TypeError` for an invalid `timeoutMs`.
   */
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(method: string, params?: JsonRpcParams, options?: NotifyOptions): Promise<void>;
  /** Starts the transport. Call once, after registering handlers. */
  start(): Promise<void>;
  /** Closes the transport, rejects every pending request and aborts every running handler. Idempotent. */
  close(reason?: Error): Promise<void>;
  /** Resolves once the peer is closed, with the reason if it closed because of a fault. */
  readonly closed: Promise<Error | undefined>;
}
