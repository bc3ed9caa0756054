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
import { createLinkReporter, isServed, isView } from "./apps-state";
import type { AppsOptions, McpApps } from "./apps-types";
import { UI_EXTENSION_ID } from "./constants";

const SILENT: Logger = { warn() {}, error() {} };
const MAX_WARNINGS = 1000;

function checkServer(server: Server): void {
  const needed = ["use", "resource", "removeResource", "tool"] as const;
  if (typeof server !== "object" || server === null || needed.some((m) => typeof server[m] !== "function")) {
    throw new TypeError("createApps(server): pass a server made by createServer() from @proto/mcp-server");
  }
}

function createState(options: AppsOptions): AppsState {
  if (options.serve !== undefined && options.serve !== "negotiated" && options.serve !== "always") throw new TypeError('createApps(): serve must be "negotiated" or "always"');
  if (options.appOnlyTools !== undefined && options.appOnlyTools !== "list" && options.appOnlyTools !== "hide") throw new TypeError('createApps(): appOnlyTools must be "list" or "hide"');
  const logger = options.logger ?? SILENT;
  const warned = new Set<string>();
  return {
    serve: options.serve ?? "negotiated",
    appOnlyTools: options.appOnlyTools ?? "list",
    host: undefined,
    admitting: undefined,
    warnOnce(key: string, message: string, detail?: unknown) {
      if (warned.has(key) || warned.size >= MAX_WARNINGS) return;
      warned.add(key);
      logger.warn(message, detail);
    },
  };
}

/**
 * Installs MCP Apps on `server` (one `server.use()` of the `io.modelcontextprotocol/ui`
 * extension) and returns the registry to declare views and linked tools with. Call it once
 * per server, before clients connect: sessions initialized earlier do not negotiate it.
 * Throws a `TypeError` when something registered already breaks its rules (a `ui://`
 * resource or template, malformed tool `_meta.ui`). The registry lives as long as the server;
 * there is nothing to close.
 */
export function createApps(server: Server, options: AppsOptions = {}): McpApps {
  checkServer(server);
  const state = createState(options);
  const report = createLinkReporter(state);
  try {
    server.use(createAppsExtension(state, report));
  } catch (error) {
    if (error instanceof TypeError && /already in use/.test(error.message)) {
      throw new TypeError(`createApps(): this server already has the ${UI_EXTENSION_ID} extension; call createApps once per server and share its result`);
    }
    throw error;
  }
  return {
    resource: (definition, read) => registerView(server, state, definition, read),
    removeResource: (uri: string): boolean => isView(state, uri) && server.removeResource(uri),
    tool: ((definition: Parameters<typeof registerTool>[1], handler?: unknown) => registerTool(server, definition, handler)) as McpApps["tool"],
    checkLinks: report,
    isServed: (client) => isServed(state, client),
  };
}
