/** What sessions share with their server: the definition, routes, features and extensions. */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import type { CacheHints, Implementation, ProtocolVersion, ServerCapabilities } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { ExtensionInterceptor, ServerExtension } from "./extension";
import type { AnyFeature, FeatureNotificationContext } from "./feature";
import type { ContextFactory } from "./session-context";
import type { SessionState } from "./session-state";
import type { ListenRegistry } from "./stateless/listen";
import type { RequestStateCodec } from "./stateless/request-state";
import type { ServerSession } from "./session-types";

/** A request method's handler with the feature (if any) whose state it receives. */
export interface Route {
  readonly feature: AnyFeature | undefined;
  readonly run: (params: JsonRpcParams | undefined, ctx: RequestContext, state: unknown) => unknown;
}

/** A notification method's handler with its feature. */
export interface NotificationRoute {
  readonly feature: AnyFeature;
  readonly run: (params: JsonRpcParams | undefined, ctx: FeatureNotificationContext, state: unknown) => void | Promise<void>;
}

/** What serving the stateless revision needs (one per server). */
export interface StatelessCore {
  /** The stateless revisions served (empty: every claimed request is -32022). */
  readonly versions: readonly string[];
  readonly requestState: RequestStateCodec;
  readonly cacheHints: (method: string) => CacheHints | undefined;
  readonly listens: ListenRegistry;
  /** The input schema of a served tool (for `Mcp-Param-*` checks), or undefined. */
  readonly toolSchema: (name: string) => object | undefined;
}

/** The server as its sessions see it. */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly logger: Logger;
  readonly requestTimeoutMs: number | undefined;
  readonly supportedVersions: readonly ProtocolVersion[];
  readonly stateless: StatelessCore;
  readonly routes: ReadonlyMap<string, Route>;
  readonly notificationRoutes: ReadonlyMap<string, NotificationRoute>;
  readonly interceptors: ReadonlyMap<string, readonly ExtensionInterceptor[]>;
  readonly features: readonly AnyFeature[];
  readonly extensions: readonly ServerExtension[];
  /** Builds a request's context. */
  readonly createContext: ContextFactory;
  /** The capabilities of the definition (features and options), without extensions. */
  capabilities(): ServerCapabilities;
  /** True when `capabilities()` has `key` (as merged: the last contributor naming it decides), without merging. */
  advertises(key: keyof ServerCapabilities): boolean;
  /** Called when a session starts and when it ends. */
  opened(state: SessionState, view: ServerSession): void;
  closed(state: SessionState, view: ServerSession): void;
  /** Called instead of `closed` when a session ends that never created a feature state (a single-request session). */
  forget(view: ServerSession): void;
}
