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

/** The view's URI. */
export const DASHBOARD_URI = "ui://everything/dashboard";

/**
 * A complete, self-contained view: it speaks the MCP Apps postMessage protocol directly
 * (`ui/initialize`, then `ui/notifications/initialized`), renders the tool result the host
 * forwards, and calls `dashboard_refresh` through the host. No external origin, so no CSP
 * domains are declared.
 */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>everything dashboard</title>
<style>
  body { font-family: var(--font-sans, system-ui, sans-serif); color: var(--color-text-primary, #171717); margin: 12px; }
  dl { display: grid; grid-template-columns: max-content auto; gap: 4px 12px; }
  button { font: inherit; }
</style>
</head>
<body>
<h1>everything</h1>
<dl><dt>calls</dt><dd id="calls">-</dd><dt>refreshed at</dt><dd id="at">-</dd></dl>
<button id="refresh" type="button">Refresh</button>
<script>
  let nextId = 1;
  const pending = new Map();
  function request(method, params) {
    const id = nextId++;
    window.parent.postMessage({ jsonrpc: "2.0", id, method, params }, "*");
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  function show(result) {
    const data = result && result.structuredContent;
    if (!data) return;
    document.getElementById("calls").textContent = String(data.calls);
    document.getElementById("at").textContent = String(data.at);
  }
  window.addEventListener("message", (event) => {
    const message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id !== undefined && pending.has(message.id)) {
      const { resolve, reject } = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) reject(new Error(message.error.message));
      else resolve(message.result);
    } else if (message.method === "ui/notifications/tool-result") {
      show(message.params);
    }
  });
  document.getElementById("refresh").addEventListener("click", () => {
    request("tools/call", { name: "dashboard_refresh", arguments: {} }).then(show, () => undefined);
  });
  request("ui/initialize", { appInfo: { name: "everything-dashboard", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" })
    .then(() => window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/initialized" }, "*"), () => undefined);
</script>
</body>
</html>
`;

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
