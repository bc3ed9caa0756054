/**
 * The fixed names of the MCP Apps extension (SEP-1865, stable 2026-01-26): the extension
 * identifier negotiated under `capabilities.extensions`, the one MIME type of an HTML view,
 * the reserved `ui://` scheme and the `_meta` keys.
 */

/** The extension identifier under `capabilities.extensions` (MCP Apps "Extension Identifier"). */
export const UI_EXTENSION_ID = "io.modelcontextprotocol/ui";

/** The MIME type of an HTML view, exactly (MCP Apps "Content Requirements": MUST be this string). */
export const UI_MIME_TYPE = "text/html;profile=mcp-app";

/** The URI scheme reserved for MCP Apps views ("Reservations in MCP"), with its `//`. */
export const UI_SCHEME = "ui://";

/** The `_meta` key of the nested UI metadata on tools, resources and read contents. */
export const UI_META_KEY = "ui";

/** The deprecated flat tool key (`_meta["ui/resourceUri"]`): read for compatibility, never emitted. */
export const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** True when `uri` is a string in the reserved `ui://` scheme (the scheme compared case-insensitively, as RFC 3986 says). */
export function isUiUri(uri: unknown): uri is string {
  return typeof uri === "string" && uri.length > UI_SCHEME.length && uri.slice(0, UI_SCHEME.length).toLowerCase() === UI_SCHEME;
}
