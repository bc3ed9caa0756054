/**
 * The wire shapes of MCP Apps metadata (SEP-1865, stable 2026-01-26, "UI Resource Format"
 * and "Resource Discovery"), named exactly as the spec names them.
 */

/** Who may call a tool: `"model"` (the agent) and/or `"app"` (the view, through the host). */
export type UiVisibility = "model" | "app";

/** `_meta.ui` of a tool ("Resource Discovery": `McpUiToolMeta`). */
export interface UiToolMeta {
  /** The `ui://` resource the host renders for this tool's results. Optional for app-only helpers. */
  readonly resourceUri?: string;
  /** Default `["model", "app"]`. `["app"]`: the view calls it, the model never sees it. */
  readonly visibility?: readonly UiVisibility[];
}

/**
 * CSP allowlists of a view (`McpUiResourceCsp`). Each entry is an origin such as
 * `https://api.example.com`, `wss://live.example.com:8443` or `https://*.example.com`.
 * Empty or omitted lists keep the host's restrictive default.
 */
export interface UiResourceCsp {
  /** `connect-src`: fetch, XHR, WebSocket. */
  readonly connectDomains?: readonly string[];
  /** `img-src`, `script-src`, `style-src`, `font-src`, `media-src`. */
  readonly resourceDomains?: readonly string[];
  /** `frame-src`: nested iframes. */
  readonly frameDomains?: readonly string[];
  /** `base-uri`. */
  readonly baseUriDomains?: readonly string[];
}

/** An empty object: how the spec marks a requested permission. */
export type UiPermissionRequest = { readonly [key: string]: never };

/** Browser permissions a view asks for (`permissions`); hosts MAY grant them. */
export interface UiResourcePermissions {
  readonly camera?: UiPermissionRequest;
  readonly microphone?: UiPermissionRequest;
  readonly geolocation?: UiPermissionRequest;
  readonly clipboardWrite?: UiPermissionRequest;
}

/** `_meta.ui` of a UI resource and of its read content (`UIResourceMeta`). */
export interface UiResourceMeta {
  readonly csp?: UiResourceCsp;
  readonly permissions?: UiResourcePermissions;
  /** A dedicated sandbox origin; host-specific format (dropped by gateways: see `dropUiDomain`). */
  readonly domain?: string;
  /** `true` asks for a visible border and background; set it explicitly, host defaults vary. */
  readonly prefersBorder?: boolean;
}

/** What a client declares under `capabilities.extensions["io.modelcontextprotocol/ui"]`. */
export interface UiClientSettings {
  /** Content types the host renders; must include `text/html;profile=mcp-app`. */
  readonly mimeTypes: readonly string[];
}
