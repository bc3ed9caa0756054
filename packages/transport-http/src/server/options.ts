/**
 * Options of the Streamable HTTP server handler and their defaults (see the package README's
 * table). Every limit is an option, named as in the rest of @proto.
 */
import { resolveLimits } from "@proto/jsonrpc";
import type { JsonRpcRequest, Logger, Principal, Transport } from "@proto/jsonrpc";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@proto/mcp-protocol";
import type { ProtectedResourceOptions } from "../auth/metadata";
import type { CorsOptions } from "./cors";
import type { EventStore } from "./event-store";
import type { ResponseMode } from "./exchange";
import type { HostCheckOptions } from "./guards";
import type { HttpRequestLike } from "./io";
import type { SharedSessionOptions } from "./shared-store";

/**
 * A session's state as the server layer saves it for other instances (handler option `shared`):
 * pass it to the server as `server.connect(transport, { sessionId, shared })`. The transport keeps
 * it opaque, except that a string `protocolVersion` member is also taken as the negotiated version.
 */
export interface SharedSessionState {
  /** What another instance saved, to rebuild the session from; undefined for a new session. */
  readonly snapshot: unknown;
  /**
   * Saves the state in the shared record and tells the other replicas; rejects when the store is
   * unreachable. `topics` (when given) replace what the session listens to across the deployment:
   * `createSessionNotifier` reaches it by them (e.g. a resource URI it subscribed to).
   */
  save(state: object, topics?: readonly string[]): Promise<void>;
  /** Registers a listener for states other replicas save. */
  onChange(listener: (state: unknown) => void): void;
}

/** What `connect` is told about the transport it connects. */
export interface ConnectContext {
  /** The session id, or undefined in stateless mode. */
  readonly sessionId: string | undefined;
  /** True in stateless mode: the transport carries one POST and closes after its answer. */
  readonly stateless: boolean;
  /**
   * True when the first frame is `initialize`. In stateless mode the other frames carry
   * `ExchangeInfo.stateless`, so `(t) => server.connect(t)` serves them as initialized.
   */
  readonly initialize: boolean;
  /** The authenticated caller that opened the transport. */
  readonly principal: Principal | undefined;
  /**
   * With the `shared` option: the session's shared state. Pass it on, as in
   * `(transport, { sessionId, shared }) => server.connect(transport, { sessionId, shared })`, so a
   * session opened on one instance is served by every other (`initialize` is false then: the
   * session is rebuilt from the snapshot another instance saved).
   */
  readonly shared?: SharedSessionState;
}

/** Options of `createStreamableHttpHandler` (and of the Node adapter). */
export interface StreamableHttpServerOptions {
  /**
   * Connects a new transport to the MCP server: pass `(transport) => server.connect(transport)`.
   * Called once per session (on `initialize`), or once per POST in stateless mode. The handler
   * owns the transport: it closes it when the session is deleted, expires, or the handler closes.
   */
  connect(transport: Transport, context: ConnectContext): Promise<unknown> | void;
  /** No sessions: every POST gets its own transport, closed after its answer; GET and DELETE answer 405. Default false. */
  readonly stateless?: boolean;
  /** `auto` (JSON unless the server sends related messages first; default), `json` (JSON only) or `sse` (always a stream). */
  readonly responseMode?: ResponseMode;
  /** Whether a GET opens the standalone stream for server-initiated messages (else 405). Default true. */
  readonly standaloneSse?: boolean;
  /** Idle time after which a session is closed (it is never closed while a request or stream is open). Default 30 minutes. */
  readonly sessionIdleTtlMs?: number;
  /**
   * Most sessions alive at once. At the cap, `initialize` evicts a session by fair share (see
   * `evictWhenFull`), or is answered 503 when none can be evicted. Default 10,000.
   */
  readonly maxSessions?: number;
  /**
   * At `maxSessions`, make room by closing the least recently used session, without a request in
   * flight, of the holder with the most live sessions (a principal, or an anonymous caller's IPv4
   * address or IPv6 /64), so a client flooding sessions and holding their GET streams evicts only
   * its own. `false` answers 503 instead until a session ends or expires. Default true.
   */
  readonly evictWhenFull?: boolean;
  /** Most live sessions one authenticated principal may hold (429 beyond; anonymous callers share `maxSessions` only). Default 100. */
  readonly maxSessionsPerPrincipal?: number;
  /** Stores SSE events so clients can resume with `Last-Event-ID`. Default: none (streams are not resumable). */
  readonly eventStore?: EventStore;
  /** The SSE `retry` field (ms) sent with priming events and before an early close. Default 1,000. */
  readonly retryMs?: number;
  /** Interval of keep-alive comments on open SSE streams (ms); 0 disables them. Default 15,000. */
  readonly keepAliveMs?: number;
  /** With an event store, close each SSE connection (not its stream) after this long so clients poll (ms); 0 = never. Default 0. */
  readonly closeSseAfterMs?: number;
  /** Messages `transport.send` may queue while no GET stream is open. Default 1,000. */
  readonly maxQueuedMessages?: number;
  /** Largest accepted body in bytes; larger is 413. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest accepted JSON nesting. Default 64. */
  readonly maxDepth?: number;
  /** Most messages in one batch (batches exist only under 2025-03-26). Default 100. */
  readonly maxBatch?: number;
  /**
   * Host/Origin checks against DNS rebinding. Default: on; loopback names only on a loopback bind,
   * elsewhere the address the connection arrived on unless `allowedHosts` lists the served names.
   * `false` turns every Host and Origin check off on every bind, loopback included: a web page
   * on any site can then reach a loopback server through DNS rebinding. Use it only behind a
   * proxy that checks `Host` and `Origin` itself.
   */
  readonly hostCheck?: HostCheckOptions | false;
  /** CORS; none unless configured. */
  readonly cors?: CorsOptions;
  /**
   * Authenticates each request: a principal, or undefined to answer 401 with a Bearer challenge.
   * The principal reaches every handler as `ExchangeInfo.principal`; a session stays bound to it.
   */
  authenticate?(request: HttpRequestLike): Promise<Principal | undefined> | Principal | undefined;
  /** Publishes RFC 9728 metadata at `/.well-known/oauth-protected-resource[/path]` and points 401/403 challenges at it. */
  readonly protectedResource?: ProtectedResourceOptions;
  /** The scopes a request needs (e.g. `server.scopesFor`); missing ones are answered 403 `insufficient_scope`. */
  scopesFor?(request: JsonRpcRequest): readonly string[] | undefined;
  /**
   * The scopes a 401 challenge asks for (`scope="..."`): what a client needs to use this resource
   * at all, which it then requests first (MCP 2025-11-25 basic/authorization, "Protected Resource
   * Metadata Discovery Requirements" and "Scope Selection Strategy"). Default
   * `protectedResource.scopesSupported`; `[]` sends no `scope`. Scope tokens per RFC 6749 section 3.3.
   */
  readonly challengeScopes?: readonly string[];
  /** Accepted `MCP-Protocol-Version` values. Default: every version @proto/mcp-protocol supports. */
  readonly protocolVersions?: readonly string[];
  /** Serve only this path (others are 404). Default: every path except the metadata paths is the endpoint. */
  readonly path?: string;
  /**
   * Many instances behind a load balancer: session records and routing shared through a store
   * (e.g. `@proto/redis-stores`). Any instance then serves any request of any session; use an
   * `eventStore` that implements `follow` and `end` so streams resume on any instance. Not with
   * `stateless`. Default: none (sessions live in this process).
   */
  readonly shared?: SharedSessionOptions;
  /** Receives faults (failed writes, store errors, hook errors). Default: discard. */
  readonly logger?: Logger;
  /** The clock for session expiry, in ms. Default `Date.now`. */
  readonly now?: () => number;
}

/** Options with every default applied. */
export interface ResolvedOptions {
  readonly connect: (transport: Transport, context: ConnectContext) => Promise<unknown> | void;
  readonly stateless: boolean;
  readonly responseMode: ResponseMode;
  readonly standaloneSse: boolean;
  readonly sessionIdleTtlMs: number;
  readonly maxSessions: number;
  readonly evictWhenFull: boolean;
  readonly maxSessionsPerPrincipal: number;
  readonly eventStore: EventStore | undefined;
  readonly retryMs: number;
  readonly keepAliveMs: number;
  readonly closeSseAfterMs: number;
  readonly maxQueuedMessages: number;
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  readonly maxBatch: number;
  readonly hostCheck: HostCheckOptions | false;
  readonly cors: CorsOptions | undefined;
  readonly authenticate: StreamableHttpServerOptions["authenticate"];
  readonly protectedResource: ProtectedResourceOptions | undefined;
  readonly scopesFor: StreamableHttpServerOptions["scopesFor"];
  readonly challengeScopes: readonly string[];
  readonly protocolVersions: ReadonlySet<string>;
  readonly path: string | undefined;
  readonly shared: SharedSessionOptions | undefined;
  readonly logger: Logger | undefined;
  readonly now: () => number;
}

function count(value: number | undefined, fallback: number, name: string, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min) {
    throw new TypeError(`${name} must be a number >= ${min}, got ${String(value)}`);
  }
  return value;
}

// scope-token = 1*( %x21 / %x23-5B / %x5D-7E ) (RFC 6749 section 3.3)
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** A frozen copy of an option holding scope tokens; anything else is a `TypeError` naming the option. */
export function checkScopeTokens(name: string, scopes: unknown): readonly string[] {
  if (!Array.isArray(scopes)) throw new TypeError(`${name} must be an array of scope strings, got ${String(scopes)}`);
  for (const scope of scopes as readonly unknown[]) {
    if (typeof scope !== "string" || !SCOPE_TOKEN.test(scope)) {
      throw new TypeError(`${name} holds ${JSON.stringify(scope)}, which is not a scope token (RFC 6749 section 3.3: printable ASCII, no space, quote or backslash)`);
    }
  }
  return Object.freeze([...(scopes as string[])]);
}

/** The scopes of a 401 challenge: `challengeScopes`, else `protectedResource.scopesSupported`; a value that is not a scope token is a `TypeError`. */
export function scopeList(options: Pick<StreamableHttpServerOptions, "challengeScopes" | "protectedResource">): readonly string[] {
  const name = options.challengeScopes !== undefined ? "challengeScopes" : "protectedResource.scopesSupported";
  return checkScopeTokens(name, options.challengeScopes ?? options.protectedResource?.scopesSupported ?? []);
}

/** Applies defaults and refuses options that cannot work, with a `TypeError` that says why. */
export function resolveOptions(options: StreamableHttpServerOptions): ResolvedOptions {
  if (typeof options?.connect !== "function") {
    throw new TypeError("createStreamableHttpHandler needs a connect(transport) option, e.g. (transport) => server.connect(transport)");
  }
  const responseMode = options.responseMode ?? "auto";
  if (!["auto", "json", "sse"].includes(responseMode)) throw new TypeError(`responseMode must be "auto", "json" or "sse", got ${String(responseMode)}`);
  if (options.path !== undefined && !options.path.startsWith("/")) throw new TypeError(`path must start with "/", got ${options.path}`);
  if (options.shared !== undefined && options.stateless === true) throw new TypeError("shared and stateless exclude each other: a stateless handler has no sessions to share");
  if (options.shared !== undefined && (typeof options.shared.sessions?.get !== "function" || typeof options.shared.bus?.publish !== "function")) {
    throw new TypeError("shared needs { sessions: SessionStore, bus: MessageBus }, e.g. from @proto/redis-stores");
  }
  return {
    connect: options.connect,
    stateless: options.stateless ?? false,
    responseMode,
    standaloneSse: options.standaloneSse ?? true,
    sessionIdleTtlMs: count(options.sessionIdleTtlMs, 30 * 60_000, "sessionIdleTtlMs", 1),
    maxSessions: count(options.maxSessions, 10_000, "maxSessions", 1),
    evictWhenFull: options.evictWhenFull ?? true,
    maxSessionsPerPrincipal: count(options.maxSessionsPerPrincipal, 100, "maxSessionsPerPrincipal", 1),
    eventStore: options.eventStore,
    retryMs: count(options.retryMs, 1_000, "retryMs"),
    keepAliveMs: count(options.keepAliveMs, 15_000, "keepAliveMs"),
    closeSseAfterMs: count(options.closeSseAfterMs, 0, "closeSseAfterMs"),
    maxQueuedMessages: count(options.maxQueuedMessages, 1_000, "maxQueuedMessages"),
    ...resolveLimits(options),
    hostCheck: options.hostCheck ?? {},
    cors: options.cors,
    authenticate: options.authenticate,
    protectedResource: options.protectedResource,
    scopesFor: options.scopesFor,
    challengeScopes: scopeList(options),
    protocolVersions: new Set<string>(options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS),
    path: options.path,
    shared: options.shared,
    logger: options.logger,
    now: options.now ?? Date.now,
  };
}
