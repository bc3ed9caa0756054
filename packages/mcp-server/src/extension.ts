/**
 * The public extension API (DESIGN.md section 2, "Extensions"): how an extension such as
 * MCP Apps plugs into a server through hooks, never through private fields.
 *
 * An extension has an identifier (`io.modelcontextprotocol/ui`). It is *negotiated* with a
 * session when the client declared that identifier under `capabilities.extensions` at
 * `initialize`; the server then advertises it under its own `capabilities.extensions`.
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { JsonObject, Prompt, Resource, ResourceTemplate, Tool } from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { ListKind } from "./list-endpoint";
import type { ServerSession } from "./session-types";

/** The item type of each decoratable list. */
export interface ListItems {
  tools: Tool;
  resources: Resource;
  resourceTemplates: ResourceTemplate;
  prompts: Prompt;
}

/** What a list decorator knows about the session it decorates for. */
export interface DecorateContext {
  readonly session: ServerSession;
  /** The client's settings for this extension when negotiated, else undefined. */
  readonly settings: JsonObject | undefined;
}

/** Decorates one list item for a session: return the item (or a new object), or undefined to leave it out. */
export type ListDecorator<T> = (item: T, ctx: DecorateContext) => T | undefined;

/** Handles a method an extension adds. */
export type ExtensionMethodHandler = (params: JsonRpcParams | undefined, ctx: RequestContext) => unknown;

/**
 * Wraps an existing method (built-in or added): call `next()` to run the rest of the chain,
 * optionally with different params; return its result, a changed result, or throw. `next()` runs
 * at most once per call: a second call rejects with a `TypeError` (and the method does not run again).
 */
export type ExtensionInterceptor = (
  params: JsonRpcParams | undefined,
  ctx: RequestContext,
  next: (params?: JsonRpcParams) => Promise<unknown>,
) => unknown;

/** An extension, passed to `server.use()`. */
export interface ServerExtension {
  /** The identifier under `capabilities.extensions`, e.g. `io.modelcontextprotocol/ui`. */
  readonly id: string;
  /**
   * The server's settings for this extension, advertised to a session that negotiated it.
   * Receives the client's settings; return undefined to decline this client. Default `{}`.
   */
  settings?(client: JsonObject, session: ServerSession): JsonObject | undefined;
  /**
   * Decorators by list kind, applied per session to `tools/list`, `resources/list`,
   * `resources/templates/list` and `prompts/list` (whether or not negotiated: check
   * `ctx.settings`). Results are cached per session until the list changes.
   */
  readonly decorate?: { readonly [K in ListKind]?: ListDecorator<ListItems[K]> };
  /** Methods this extension adds, by name. Requests for them follow the same lifecycle rules as built-ins. */
  readonly methods?: { readonly [method: string]: ExtensionMethodHandler };
  /** Interceptors by method, run outermost first in `use()` order. */
  readonly intercept?: { readonly [method: string]: ExtensionInterceptor };
  /** Called once a session is initialized (after the `initialize` response is decided). */
  initialized?(session: ServerSession): void;
}
