/** Public types of `createApps`: options, view definitions, and the `McpApps` registry. */
import type { Logger } from "@proto/jsonrpc";
import type { ToolInputSchema } from "@proto/mcp-protocol";
import type {
  LazyToolDefinition,
  RequestContext,
  ResourceDefinition,
  ResourceHandle,
  ServerSession,
  ToolDefinition,
  ToolHandle,
  ToolHandler,
  ToolOutputSchema,
} from "@proto/mcp-server";
import type { LinkReport } from "./links";
import type { UiResourceMeta, UiToolMeta } from "./types";

/** Options of `createApps`. */
export interface AppsOptions {
  /**
   * Who gets UI metadata and views. `"negotiated"` (default): only sessions whose client
   * declared `capabilities.extensions["io.modelcontextprotocol/ui"]` with the MIME type.
   * `"always"`: every session, for hosts that render views without declaring the extension.
   */
  readonly serve?: "negotiated" | "always";
  /**
   * App-only tools (`visibility: ["app"]`) in a UI session's `tools/list`: `"list"` (default,
   * as the spec says: hosts filter them) or `"hide"` for hosts that show them to the model.
   * Calls still work either way: the view calls them through the host. Sessions without UI
   * never see them and cannot call them.
   */
  readonly appOnlyTools?: "list" | "hide";
  /** Where broken links and misuse found while serving are reported. Default: nowhere. */
  readonly logger?: Logger;
}

/** A view: a resource definition whose URI is `ui://...`, plus its `_meta.ui` as `ui`. */
export interface UiResourceDefinition extends Omit<ResourceDefinition, "uri" | "mimeType"> {
  /** A `ui://` URI, e.g. `ui://weather/dashboard`. */
  readonly uri: string;
  /** Always `text/html;profile=mcp-app`; may be omitted. */
  readonly mimeType?: "text/html;profile=mcp-app";
  /** CSP, permissions, dedicated domain and border preference, sent on the list entry and the read content. */
  readonly ui?: UiResourceMeta;
}

/** What a view's reader returns: the HTML document as text (recommended) or bytes; undefined or null for not found. */
export type UiResourceBody = string | Uint8Array | ArrayBuffer | undefined | null;

/** Reads a view's HTML for `uri`. */
export type UiResourceReader = (uri: string, ctx: RequestContext) => UiResourceBody | Promise<UiResourceBody>;

/** The link of a tool registered with `apps.tool()`. */
export interface UiToolLink {
  /** `_meta.ui` of the tool: `resourceUri` and `visibility` (default `["model", "app"]`). */
  readonly ui: UiToolMeta;
}

/** A view registered with `apps.resource()`. */
export interface UiResourceHandle extends ResourceHandle {}

/** The MCP Apps registry of one server, made by `createApps(server)`. */
export interface McpApps {
  /**
   * Registers a view: a `ui://` resource served as `text/html;profile=mcp-app`. `read` returns
   * the HTML (or is the HTML itself: a string or bytes). Throws a `TypeError` for a non-`ui://`
   * URI, another MIME type, bad metadata, or a duplicate URI.
   */
  resource(definition: UiResourceDefinition, read: UiResourceReader | string | Uint8Array): UiResourceHandle;
  /** Unregisters a view by URI; false when there was none. */
  removeResource(uri: string): boolean;
  /** Registers a tool linked to a view (`ui.resourceUri`) or with a visibility; otherwise exactly `server.tool()`. */
  tool<const I extends ToolInputSchema, const O extends ToolOutputSchema | undefined = undefined>(
    definition: ToolDefinition<I, O> & UiToolLink,
    handler: ToolHandler<I, O>,
  ): ToolHandle;
  /** Registers a lazy linked tool (see `server.tool({ ...definition, load })`). */
  tool<const I extends ToolInputSchema, const O extends ToolOutputSchema | undefined = undefined>(definition: LazyToolDefinition<I, O> & UiToolLink): ToolHandle;
  /**
   * Checks every link of the tools served now (read from the server's registry: tools
   * registered with `apps.tool()` or `server.tool()`, views however they were removed).
   */
  checkLinks(): LinkReport;
  /**
   * True when this client gets UI metadata and views (negotiated, or `serve: "always"`). Pass
   * the handler's `ctx` (right on both eras: under 2026-07-28 each request negotiates) or a
   * 2025-11-25 `ServerSession`.
   */
  isServed(client: RequestContext | ServerSession): boolean;
}
