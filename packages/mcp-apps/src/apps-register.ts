/**
 * Registering views and linked tools on the server through its public `resource()` and
 * `tool()` (SEP-1865 "UI Resource Format", "Resource Discovery"). Nothing is recorded here:
 * the link check and the gating read the server's registry.
 */
import type { Meta } from "@proto/mcp-protocol";
import type { RequestContext, Server, ToolHandle } from "@proto/mcp-server";
import type { AppsState } from "./apps-state";
import type { UiResourceBody, UiResourceDefinition, UiResourceHandle, UiResourceReader, UiToolLink } from "./apps-types";
import { LEGACY_RESOURCE_URI_KEY, UI_META_KEY, UI_MIME_TYPE } from "./constants";
import { isHtmlDocument } from "./html";
import { canonicalUiResourceMeta } from "./meta";
import { canonicalToolMeta } from "./tool-meta";

const VIEW_URI = /^ui:\/\/[^\s\u0000-\u001f\u007f]+$/;

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
    if (!isHtmlDocument(body)) {
      state.warnOnce(`html:${uri}`, `MCP Apps: view ${uri} returned text that does not start like an HTML document (<!doctype html> or <html>); hosts expect a complete HTML5 document`);
    }
    return { ...base, text: body };
  }
  if (body instanceof Uint8Array || body instanceof ArrayBuffer) return { ...base, blob: body };
  throw new TypeError(`view ${uri}: the reader must return the HTML document as a string (recommended) or bytes, got ${typeof body}`);
}

/** `apps.resource()`: registers a view with `server.resource()`. */
export function registerView(server: Server, state: AppsState, definition: UiResourceDefinition, read: UiResourceReader | string | Uint8Array): UiResourceHandle {
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
  state.admitting = definition.uri; // the extension's registering() admits this one ui:// registration
  try {
    return server.resource({ ...rest, mimeType: UI_MIME_TYPE, ...(listMeta === undefined ? {} : { _meta: listMeta }) }, reader);
  } finally {
    state.admitting = undefined;
  }
}

/** `apps.tool()`: registers a linked tool with `server.tool()` (eager or lazy). */
export function registerTool(server: Server, definition: { readonly name: string; readonly _meta?: Meta } & UiToolLink, handler?: unknown): ToolHandle {
  const where = `apps.tool(${typeof definition?.name === "string" ? JSON.stringify(definition.name) : ""})`;
  if (typeof definition !== "object" || definition === null) throw new TypeError(`${where}: pass a tool definition with a ui link`);
  const meta = canonicalToolMeta(definition.ui, where);
  if (definition._meta?.[UI_META_KEY] !== undefined || definition._meta?.[LEGACY_RESOURCE_URI_KEY] !== undefined) {
    throw new TypeError(`${where}: pass the link as ui: { resourceUri, visibility }, not in _meta`);
  }
  const { ui: _ui, ...rest } = definition;
  const full = { ...rest, _meta: { ...rest._meta, [UI_META_KEY]: meta } };
  // The definition's types were checked by McpApps.tool's overloads, which mirror server.tool's.
  const register = server.tool as (definition: unknown, handler?: unknown) => ToolHandle;
  return handler === undefined ? register.call(server, full) : register.call(server, full, handler);
}
