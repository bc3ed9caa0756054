/**
 * `createApps(server)`: MCP Apps (SEP-1865, stable 2026-01-26) on a `@proto/mcp-server`
 * server, through its public API only: views are registered with `server.resource()`, linked
 * tools with `server.tool()`, and everything per session goes through one extension.
 */
import type { Logger } from "@proto/jsonrpc";
import type { Meta } from "@proto/mcp-protocol";
import type { RequestContext, Server, ToolHandle } from "@proto/mcp-server";
import { createAppsExtension } from "./apps-extension";
import type { AppsState } from "./apps-extension";
import type { AppsOptions, McpApps, UiResourceBody, UiResourceDefinition, UiResourceHandle, UiResourceReader, UiToolLink } from "./apps-types";
import { LEGACY_RESOURCE_URI_KEY, UI_EXTENSION_ID, UI_META_KEY, UI_MIME_TYPE } from "./constants";
import { isHtmlDocument } from "./html";
import { checkLinks } from "./links";
import { canonicalUiResourceMeta } from "./meta";
import { canonicalToolMeta, readToolUi } from "./tool-meta";
import type { ToolUi } from "./tool-meta";

const VIEW_URI = /^ui:\/\/[^\s\u0000-\u001f\u007f]+$/;
const SILENT: Logger = { warn() {}, error() {} };
const MAX_WARNINGS = 1000;

function checkServer(server: Server): void {
  const needed = ["use", "resource", "removeResource", "tool", "summary"] as const;
  if (typeof server !== "object" || server === null || needed.some((m) => typeof server[m] !== "function")) {
    throw new TypeError("createApps(server): pass a server made by createServer() from @proto/mcp-server");
  }
}

function checkViewDefinition(definition: UiResourceDefinition, where: string): void {
  if (typeof definition !== "object" || definition === null) throw new TypeError(`${where}: pass a definition { uri, name, ui? }`);
  if (typeof definition.uri !== "string" || !VIEW_URI.test(definition.uri)) {
    throw new TypeError(`${where}: a view's uri must start with ui:// (lowercase) and contain no spaces or control characters, e.g. "ui://weather/dashboard"`);
  }
  if (definition.mimeType !== undefined && definition.mimeType !== UI_MIME_TYPE) {
    throw new TypeError(`${where}: views are served as exactly "${UI_MIME_TYPE}"; leave mimeType out`);
  }
  if (definition._meta?.[UI_META_KEY] !== undefined) throw new TypeError(`${where}: pass the view's metadata as ui: { csp, permissions, domain, prefersBorder }, not _meta.ui`);
}

/** The read content of a view: text for a string, a base64 blob (encoded by the server) for bytes. */
function toContent(body: UiResourceBody, uri: string, meta: Meta | undefined, state: AppsState) {
  if (body === undefined || body === null) return undefined;
  const base = { uri, mimeType: UI_MIME_TYPE, ...(meta === undefined ? {} : { _meta: meta }) };
  if (typeof body === "string") {
    if (!isHtmlDocument(body)) state.warnOnce(`html:${uri}`, `MCP Apps: view ${uri} returned text that does not start like an HTML document (<!doctype html> or <html>); hosts expect a complete HTML5 document`);
    return { ...base, text: body };
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return { ...base, blob: body };
  throw new TypeError(`view ${uri}: the reader must return the HTML document as a string (recommended) or bytes, got ${typeof body}`);
}

function createState(options: AppsOptions, report: () => ReturnType<typeof checkLinks>): AppsState {
  const logger = options.logger ?? SILENT;
  const warned = new Set<string>();
  if (options.serve !== undefined && options.serve !== "negotiated" && options.serve !== "always") throw new TypeError('createApps(): serve must be "negotiated" or "always"');
  if (options.appOnlyTools !== undefined && options.appOnlyTools !== "list" && options.appOnlyTools !== "hide") throw new TypeError('createApps(): appOnlyTools must be "list" or "hide"');
  return {
    views: new Map(),
    links: new Map<string, ToolUi>(),
    serve: options.serve ?? "negotiated",
    appOnlyTools: options.appOnlyTools ?? "list",
    logger,
    warnOnce(key, message, detail) {
      if (warned.has(key) || warned.size >= MAX_WARNINGS) return;
      warned.add(key);
      logger.warn(message, detail);
    },
    report,
  };
}

/**
 * Installs MCP Apps on `server` (one `server.use()` of the `io.modelcontextprotocol/ui`
 * extension) and returns the registry to declare views and linked tools with. Call it once
 * per server, before clients connect: sessions initialized earlier do not negotiate it.
 */
export function createApps(server: Server, options: AppsOptions = {}): McpApps {
  checkServer(server);
  const state: AppsState = createState(options, () => checkLinks(state, server.summary().tools));
  try {
    server.use(createAppsExtension(state));
  } catch (error) {
    if (error instanceof TypeError && /already in use/.test(error.message)) {
      throw new TypeError(`createApps(): this server already has the ${UI_EXTENSION_ID} extension; call createApps once per server and share its result`);
    }
    throw error;
  }

  function resource(definition: UiResourceDefinition, read: UiResourceReader | string | Uint8Array): UiResourceHandle {
    const where = `apps.resource(${typeof definition?.uri === "string" ? JSON.stringify(definition.uri.slice(0, 200)) : ""})`;
    checkViewDefinition(definition, where);
    if (typeof read !== "function" && typeof read !== "string" && !(read instanceof Uint8Array)) {
      throw new TypeError(`${where}: pass a reader function, or the HTML itself as a string or bytes`);
    }
    const ui = canonicalUiResourceMeta(definition.ui, where);
    const contentMeta: Meta | undefined = ui === undefined ? undefined : { [UI_META_KEY]: ui };
    const { ui: _ui, _meta, ...rest } = definition;
    const listMeta = _meta === undefined && contentMeta === undefined ? undefined : { ..._meta, ...contentMeta };
    const reader = async (uri: string, ctx: RequestContext) => toContent(typeof read === "function" ? await read(uri, ctx) : read, uri, contentMeta, state);
    const handle = server.resource({ ...rest, mimeType: UI_MIME_TYPE, ...(listMeta === undefined ? {} : { _meta: listMeta }) }, reader);
    const record = {};
    state.views.set(handle.uri, record);
    return {
      uri: handle.uri,
      updated: () => handle.updated(),
      remove() {
        if (state.views.get(handle.uri) === record) state.views.delete(handle.uri);
        handle.remove();
      },
    };
  }

  function tool(definition: { readonly name: string; readonly _meta?: Meta } & UiToolLink, handler?: unknown): ToolHandle {
    const where = `apps.tool(${typeof definition?.name === "string" ? JSON.stringify(definition.name) : ""})`;
    if (typeof definition !== "object" || definition === null) throw new TypeError(`${where}: pass a tool definition with a ui link`);
    const meta = canonicalToolMeta(definition.ui, where);
    if (definition._meta?.[UI_META_KEY] !== undefined || definition._meta?.[LEGACY_RESOURCE_URI_KEY] !== undefined) {
      throw new TypeError(`${where}: pass the link as ui: { resourceUri, visibility }, not in _meta`);
    }
    const { ui: _ui, ...rest } = definition;
    const register = server.tool as (definition: unknown, handler?: unknown) => ToolHandle;
    const full = { ...rest, _meta: { ...rest._meta, [UI_META_KEY]: meta } };
    const handle = handler === undefined ? register.call(server, full) : register.call(server, full, handler);
    state.links.set(handle.name, readToolUi(full._meta) as ToolUi);
    return handle;
  }

  return {
    resource,
    removeResource(uri: string): boolean {
      if (!state.views.has(uri)) return false;
      state.views.delete(uri);
      return server.removeResource(uri);
    },
    tool: tool as McpApps["tool"],
    checkLinks: () => state.report(),
    isServed: (session) => state.serve === "always" || session.extension(UI_EXTENSION_ID) !== undefined,
  };
}
