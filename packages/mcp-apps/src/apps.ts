/**
 * `createApps(server)`: MCP Apps (SEP-1865, stable 2026-01-26) on a `@proto/mcp-server`
 * server, through its public API only: views are registered with `server.resource()`, linked
 * tools with `server.tool()`, and everything per session goes through one extension.
 */
import type { Logger } from "@proto/jsonrpc";
import type { Server } from "@proto/mcp-server";
import { createAppsExtension } from "./apps-extension";
import { registerTool, registerView } from "./apps-register";
import type { AppsState } from "./apps-state";
import { isServed } from "./apps-state";
import type { AppsOptions, McpApps } from "./apps-types";
import { UI_EXTENSION_ID } from "./constants";
import type { LinkReport } from "./links";
import { checkLinks } from "./links";

const SILENT: Logger = { warn() {}, error() {} };
const MAX_WARNINGS = 1000;

function checkServer(server: Server): void {
  const needed = ["use", "resource", "removeResource", "tool", "summary"] as const;
  if (typeof server !== "object" || server === null || needed.some((m) => typeof server[m] !== "function")) {
    throw new TypeError("createApps(server): pass a server made by createServer() from @proto/mcp-server");
  }
}

function createState(options: AppsOptions, report: () => LinkReport): AppsState {
  if (options.serve !== undefined && options.serve !== "negotiated" && options.serve !== "always") throw new TypeError('createApps(): serve must be "negotiated" or "always"');
  if (options.appOnlyTools !== undefined && options.appOnlyTools !== "list" && options.appOnlyTools !== "hide") throw new TypeError('createApps(): appOnlyTools must be "list" or "hide"');
  const logger = options.logger ?? SILENT;
  const warned = new Set<string>();
  return {
    views: new Map(),
    links: new Map(),
    serve: options.serve ?? "negotiated",
    appOnlyTools: options.appOnlyTools ?? "list",
    logger,
    warnOnce(key: string, message: string, detail?: unknown) {
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
 * per server, before clients connect: sessions initialized earlier do not negotiate it. The
 * registry lives as long as the server; there is nothing to close.
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
  return {
    resource: (definition, read) => registerView(server, state, definition, read),
    removeResource(uri: string): boolean {
      if (!state.views.has(uri)) return false;
      state.views.delete(uri);
      return server.removeResource(uri);
    },
    tool: ((definition: Parameters<typeof registerTool>[2], handler?: unknown) => registerTool(server, state, definition, handler)) as McpApps["tool"],
    checkLinks: () => state.report(),
    isServed: (session) => isServed(state, session),
  };
}
