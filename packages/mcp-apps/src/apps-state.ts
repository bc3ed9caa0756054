/** The state `createApps` owns and its extension reads: options, the server's registry, the link report. */
import type { JsonObject } from "@proto/mcp-protocol";
import type { ExtensionHost, ServerRegistry } from "@proto/mcp-server";
import { isUiUri, UI_EXTENSION_ID } from "./constants";
import type { LinkReport } from "./links";
import { checkLinks } from "./links";

/** Options and server hooks of one `createApps`. */
export interface AppsState {
  readonly serve: "negotiated" | "always";
  readonly appOnlyTools: "list" | "hide";
  /** The server's extension host, set by `server.use()` (before `createApps` returns). */
  host: ExtensionHost | undefined;
  /** The URI `apps.resource()` is registering now: the one `ui://` registration the extension admits. */
  admitting: string | undefined;
  /** Logs `message` once per `key`. */
  warnOnce(key: string, message: string, detail?: unknown): void;
}

/** The server's registry; a `TypeError` before the extension is installed (which `createApps` does at once). */
export function registryOf(state: AppsState): ServerRegistry {
  if (state.host === undefined) throw new TypeError("MCP Apps: the extension is not installed on a server; use createApps(server)");
  return state.host.registry;
}

/** True when `uri` is a view: a `ui://` resource on the server (only `apps.resource()` can register one). */
export function isView(state: AppsState, uri: unknown): uri is string {
  return isUiUri(uri) && registryOf(state).resource(uri) !== undefined;
}

/** Who asks: a request context or a decorate context (both answer for the request's negotiated extensions, on either era). */
export interface Negotiated {
  extension(id: string): JsonObject | undefined;
}

/** True when this client gets UI metadata and views: it negotiated the extension (per session, or per 2026-07-28 request). */
export function isServed(state: AppsState, client: Negotiated): boolean {
  return state.serve === "always" || client.extension(UI_EXTENSION_ID) !== undefined;
}

/**
 * Creates the link report of the tools served now, recomputed only when the served tools or
 * resources changed (the registry returns the same frozen arrays until then).
 */
export function createLinkReporter(state: AppsState): () => LinkReport {
  let cached: { tools: unknown; resources: unknown; report: LinkReport } | undefined;
  return () => {
    const registry = registryOf(state);
    const tools = registry.tools();
    const resources = registry.resources();
    if (cached?.tools !== tools || cached.resources !== resources) cached = { tools, resources, report: checkLinks(tools, resources) };
    return cached.report;
  };
}
