/**
 * The internal feature API: how a module (tools here; resources, prompts, completions,
 * logging, progress and client requests in their own files) plugs into the server without
 * touching its internals. See "Writing a feature module" in the package README.
 *
 * A feature contributes capabilities, request and notification handlers by method,
 * per-session state, and members of the request context. Its handlers run after the core
 * has checked the lifecycle (initialized, or a request carrying its own `_meta` version),
 * the `_meta` protocol version (-32022) and the batch rule.
 */
import type { ExchangeInfo, JsonRpcParams, Logger } from "@proto/jsonrpc";
import type { JsonValue, ServerCapabilities } from "@proto/mcp-protocol";
import type { BaseRequestContext, RequestContext } from "./context";
import type { FeatureContext } from "./context-features";
import type { RegistryHooks } from "./extension-registry";
import type { ListEndpoint, ListSpec } from "./list-endpoint";
import type { ServerSession } from "./session-types";

/** Handles one request method for a feature; `state` is the feature's state for the request's session. */
export type FeatureRequestHandler<S> = (params: JsonRpcParams | undefined, ctx: RequestContext, state: S) => unknown;

/** What a feature's notification handler receives. */
export interface FeatureNotificationContext {
  readonly method: string;
  readonly session: ServerSession;
  readonly info: ExchangeInfo;
}

/** Handles one notification method for a feature. */
export type FeatureNotificationHandler<S> = (
  params: JsonRpcParams | undefined,
  ctx: FeatureNotificationContext,
  state: S,
) => void | Promise<void>;

/** A feature module. `S` is its per-session state (use `undefined` when it keeps none). */
export interface Feature<S = undefined> {
  /** A short name for errors and logs (`"tools"`, `"resources"`). */
  readonly name: string;
  /** Capabilities to advertise, computed at each `initialize` and `server/discover`; undefined for none. */
  capabilities?(): ServerCapabilities | undefined;
  /** Request handlers by method. A method may belong to one feature only. */
  readonly requests?: { readonly [method: string]: FeatureRequestHandler<S> };
  /** Notification handlers by method (client to server). */
  readonly notifications?: { readonly [method: string]: FeatureNotificationHandler<S> };
  /** Creates this feature's state for a new session (at connect). */
  createState?(session: ServerSession): S;
  /** Releases a session's state when the session closes. */
  closeState?(state: S, session: ServerSession): void;
  /** The session's state as JSON for another instance (`ConnectOptions.shared`); undefined saves nothing. */
  snapshot?(state: S): JsonValue | undefined;
  /** Replaces the session's state with what `snapshot` returned on another instance (untrusted: validate; throw to refuse). */
  restore?(state: S, value: unknown, session: ServerSession): void;
  /**
   * This feature's members of the request context (see `FeatureContext`), each made by a
   * factory called on first access only and cached on that context:
   * `context: { log: (ctx, state) => (level, data, logger) => ... }`. Prefer this to
   * `extendContext`: a request that never uses a member pays nothing for it.
   */
  readonly context?: { readonly [K in keyof FeatureContext]?: (ctx: RequestContext, state: S) => FeatureContext[K] };
  /**
   * Installs members on every request context eagerly, e.g. `ctx.log = ...`. Called once per
   * request before its handler runs; costs a closure per member per request, so prefer `context`.
   */
  extendContext?(ctx: BaseRequestContext & Partial<Mutable<FeatureContext>>, state: S): void;
}

/** Removes `readonly` so `extendContext` can assign members. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What the server offers to feature modules. */
export interface FeatureHost {
  /** The server's logger (never console). */
  readonly logger: Logger;
  /** The default page size of paginated lists (option `pageSize`). */
  readonly pageSize: number;
  /**
   * Creates a cached, paginated list whose changes send one coalesced `list_changed`
   * notification to every initialized session, decorated and filtered per session by the
   * extensions in use.
   */
  createList<T>(spec: ListSpec<T>): ListEndpoint<T>;
  /**
   * Tells the extensions about registrations: call `registering(entry)` after the feature's
   * own checks and before storing (it throws an extension's refusal), `registered(entry)` after
   * storing, `removed(entry)` after removing.
   */
  readonly registry: RegistryHooks;
  /** Every live session (initialized or not). */
  sessions(): Iterable<ServerSession>;
  /**
   * Sends a notification to every initialized session that `filter` accepts (all when omitted),
   * and to the `subscriptions/listen` streams that asked for its type. Failures are logged.
   */
  broadcast(method: string, params?: JsonRpcParams, filter?: (session: ServerSession) => boolean, version?: () => string): void;
  /**
   * Many instances (`stateless.fanout` with `notifySessions`): delivers `method` to the shared
   * 2025 sessions of the deployment that hold `topic`, and returns true; the caller then leaves
   * the shared sessions it holds (`isSharedSession`) out. False: nothing was sent.
   */
  notifyShared?(topic: string, method: string, params?: JsonRpcParams): boolean;
  /** Sends a notification to the `subscriptions/listen` streams that asked for it only (e.g. `resources/updated` for their URIs). */
  stream?(method: string, params?: JsonRpcParams): void;
}

/** Erases a feature's state type, so features with different states share one list. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFeature = Feature<any>;
