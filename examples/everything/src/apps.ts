/**
 * The MCP Apps part of the everything server (extension `io.modelcontextprotocol/ui`,
 * stable 2026-01-26): one view, `ui://everything/dashboard`, linked from `show_dashboard`,
 * and one app-only tool, `dashboard_refresh`, that only the view calls (through the host).
 * Hosts without MCP Apps see `show_dashboard` as a plain tool with a text and structured
 * answer, and neither the view nor `dashboard_refresh`.
 */
import { createApps } from "@proto/mcp-apps";
import type { McpApps } from "@proto/mcp-apps";
import type { Server } from "@proto/mcp-server";
import { DASHBOARD_HTML } from "./dashboard-html";

/** The view's URI. */
export const DASHBOARD_URI = "ui://everything/dashboard";

const NO_ARGS = { type: "object", properties: {} } as const;

/**
 * Installs the dashboard on `server` (one `createApps`; call it once, before clients
 * connect). Returns the server, so it can wrap a server expression in place.
 */
export function installApps<S extends Server>(server: S): S {
  const apps: McpApps = createApps(server);
  let calls = 0;
  const snapshot = () => ({ calls: ++calls, at: new Date().toISOString() });
  apps.resource(
    { uri: DASHBOARD_URI, name: "everything-dashboard", title: "everything dashboard", description: "How often the dashboard tools ran, with a refresh button.", ui: { prefersBorder: true } },
    DASHBOARD_HTML,
  );
  apps.tool(
    {
      name: "show_dashboard",
      title: "Show the dashboard",
      description: "Counts dashboard calls; hosts with MCP Apps render the answer on the everything dashboard.",
      inputSchema: NO_ARGS,
      ui: { resourceUri: DASHBOARD_URI },
    },
    snapshot,
  );
  apps.tool(
    { name: "dashboard_refresh", description: "Refreshes the dashboard's figures (called by the view, hidden from the model).", inputSchema: NO_ARGS, ui: { resourceUri: DASHBOARD_URI, visibility: ["app"] } },
    snapshot,
  );
  return server;
}
