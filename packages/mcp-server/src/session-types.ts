/** The public view of one connected session (DESIGN.md section 2: one definition, many sessions). */
import type { JsonRpcParams, RequestOptions } from "@proto/jsonrpc";
import type { ClientCapabilities, Implementation, JsonObject, ServerCapabilities } from "@proto/mcp-protocol";
import type { SessionPersistence } from "./session-shared";

/**
 * One client connection: created by `server.connect(transport)`, closed by `close()` or when
 * its transport closes. Nothing of one session is visible to another.
 */
export interface ServerSession {
  /**
   * The session's id: `ConnectOptions.sessionId` when given; else the transport's own session
   * id (Streamable HTTP `Mcp-Session-Id`, from the `ExchangeInfo` of `initialize`) once
   * `initialize` has arrived; else a random UUID. Use it to key per-session state that the
   * transport layer also sees.
   */
  readonly id: string;
  /** True once `initialize` was answered (or the session was connected as already initialized). */
  readonly initialized: boolean;
  /** The negotiated protocol version; undefined before `initialize`. */
  readonly protocolVersion: string | undefined;
  /** The client's self-reported identity; undefined before `initialize`. */
  readonly clientInfo: Implementation | undefined;
  /** What the client declared at `initialize` (empty before). */
  readonly clientCapabilities: ClientCapabilities;
  /** What the server advertised to this session at `initialize` (undefined before). */
  readonly serverCapabilities: ServerCapabilities | undefined;
  /**
   * The client's settings for extension `id` when the extension was negotiated (the client
   * declared it under `capabilities.extensions` and the server uses an extension with that id),
   * otherwise undefined.
   */
  extension(id: string): JsonObject | undefined;
  /** Sends an unsolicited notification to the client (not related to a request). */
  notify(method: string, params?: JsonRpcParams): Promise<void>;
  /** Sends an unsolicited request to the client and resolves with its result. */
  request(method: string, params?: JsonRpcParams, options?: RequestOptions): Promise<unknown>;
  /** Pings the client; rejects when it does not answer in time. */
  ping(options?: RequestOptions): Promise<void>;
  /** Closes the session and its transport. Idempotent. */
  close(reason?: Error): Promise<void>;
  /** Resolves once the session is closed, with the reason when a fault closed it. */
  readonly closed: Promise<Error | undefined>;
}

/** Options of `server.connect`. */
export interface ConnectOptions {
  /** The session's id, e.g. the HTTP handler's `ConnectContext.sessionId`. Default: see `ServerSession.id`. */
  readonly sessionId?: string;
  /**
   * Treat the session as already initialized: for stateless Streamable HTTP, where every
   * request arrives on a fresh transport without `initialize`. The version is taken from each
   * request's `_meta` or `mcp-protocol-version` header when present, else this one (default:
   * the latest).
   */
  readonly initialized?: {
    readonly protocolVersion?: string;
    readonly clientCapabilities?: ClientCapabilities;
    readonly clientInfo?: Implementation;
  };
  /**
   * Shares the session with other instances of the same server definition (a load-balanced
   * Streamable HTTP deployment): the session is rebuilt from `shared.snapshot` when there is one,
   * and saves its snapshot through `shared.save` after each request that changed it. Pass the
   * HTTP handler's `ConnectContext.shared` here.
   */
  readonly shared?: SessionPersistence;
}
