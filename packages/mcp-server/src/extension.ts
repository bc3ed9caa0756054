/**
 * The public extension API (DESIGN.md section 2, "Extensions"): how an extension such as
 * MCP Apps plugs into a server through hooks, never through private fields.
 *
 * An extension has an identifier (`io.modelcontextprotocol/ui`). It is *negotiated* when the
 * client declared that identifier under `capabilities.extensions` and `settings()` accepts
 * it: under 2025-11-25 once per session at `initialize` (the server then advertises it under
 * its own `capabilities.extensions`), under 2026-07-28 per request, from the request's
 * `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` (`server/discover`
 * advertises every extension in use). Handlers read the outcome with `ctx.extension(id)`.
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

/**
 * What a list decorator knows about the client it decorates for: the negotiated extensions
 * only (no session: one decorated list is shared by every session and request that negotiated
 * the same extensions with the same client settings).
 */
export interface DecorateContext {
  /** The client's settings for this extension when negotiated, else undefined. */
  readonly settings: JsonObject | undefined;
  /** The client's settings for extension `id` when negotiated, else undefined. */
  extension(id: string): JsonObject | undefined;
}

/** Decorates one list item for a client: return the item (or a new object), or undefined to leave it out. */
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

/**
 * One registration an extension is told about: which list it belongs to and its item as
 * registered (the undecorated descriptor `server.tool()`, `resource()`, `resourceTemplate()`
 * or `prompt()` built).
 */
export type RegistryEntry = { readonly [K in ListKind]: { readonly kind: K; readonly item: ListItems[K] } }[ListKind];

/**
 * A read-only view of what the server serves now, undecorated: what `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list` hold before extensions
 * decorate them, in registration order. Disabled and hidden tools are not in it. Each call
 * reads the live registry; returned arrays and items are frozen.
 */
export interface ServerRegistry {
  /** The tools served over MCP now (enabled, not hidden). */
  tools(): readonly Tool[];
  /** The served tool named `name`, or undefined. */
  tool(name: string): Tool | undefined;
  /** The static resources. */
  resources(): readonly Resource[];
  /** The static resource with exactly this URI, or undefined. */
  resource(uri: string): Resource | undefined;
  /** The resource templates. */
  resourceTemplates(): readonly ResourceTemplate[];
  /** The prompts. */
  prompts(): readonly Prompt[];
}

/** What `server.use()` hands an extension's `installed` hook. It stays valid for the server's life. */
export interface ExtensionHost {
  /** The server's registry, read-only. */
  readonly registry: ServerRegistry;
  /**
   * Says that this extension's decoration of the `kind` list changed (say, because something
   * it links to went away): every decorated copy is rebuilt on its next listing, and
   * one coalesced `list_changed` notification goes out as for any change of that list.
   */
  invalidate(kind: ListKind): void;
}

/** An extension, passed to `server.use()`. */
export interface ServerExtension {
  /** The identifier under `capabilities.extensions`, e.g. `io.modelcontextprotocol/ui`. */
  readonly id: string;
  /**
   * The server's settings for this extension, advertised to a 2025-11-25 session that
   * negotiated it. Receives the client's settings and the session (under 2026-07-28 it runs
   * for every request that declares the extension, with the connection's session); return
   * undefined to decline this client. Decide from the client's settings alone: lists are
   * decorated per negotiated set, not per session. Default `{}`.
   */
  settings?(client: JsonObject, session: ServerSession): JsonObject | undefined;
  /**
   * Decorators by list kind, applied to `tools/list`, `resources/list`,
   * `resources/templates/list` and `prompts/list` (whether or not negotiated: check
   * `ctx.settings`). Results are cached per negotiated set (ids and client settings; at most 64
   * sets per list, the oldest dropped first) until the list changes.
   */
  readonly decorate?: { readonly [K in ListKind]?: ListDecorator<ListItems[K]> };
  /** Methods this extension adds, by name. Requests for them follow the same lifecycle rules as built-ins. */
  readonly methods?: { readonly [method: string]: ExtensionMethodHandler };
  /**
   * Interceptors by method, run outermost first in `use()` order. `subscriptions/listen`
   * (2026-07-28) is interceptable too: its `next()` settles when the stream ends (the client
   * cancelled or closed it, or the server closed), so an interceptor can hold what the stream
   * asked for (its `params.notifications.resourceSubscriptions`) for exactly that long.
   */
  readonly intercept?: { readonly [method: string]: ExtensionInterceptor };
  /** Called once a 2025-11-25 session is initialized (after the `initialize` response is decided); 2026-07-28 has no initialize. */
  initialized?(session: ServerSession): void;
  /**
   * Called once by `server.use()`, after the extension's id and methods were checked and
   * before it takes effect, with the server's registry (what was registered before it) and
   * `invalidate`. A throw makes `use()` throw it, and the extension is not installed.
   */
  installed?(host: ExtensionHost): void;
  /**
   * Called before a tool, resource, resource template or prompt is stored (after the server's
   * own checks), for every registration including hidden and disabled tools. Throw a
   * `TypeError` that says what to do to refuse it: the registering call (`server.tool()`, ...)
   * throws that error and nothing is registered.
   */
  registering?(entry: RegistryEntry): void;
  /** Called after an entry was stored. A throw is logged; the registration stands. */
  registered?(entry: RegistryEntry): void;
  /** Called after an entry was removed (by `server.removeTool()`, `removeResource()`, ..., or a handle's `remove()`). A throw is logged. */
  removed?(entry: RegistryEntry): void;
}
