/**
 * The everything dashboard: a complete, self-contained MCP Apps view (stable 2026-01-26).
 * It speaks the view side of the postMessage JSON-RPC protocol directly, without the ext-apps
 * `App` class, so it shows every rule a view must keep:
 *
 * - only messages from `window.parent` (the host) are read; anything else is ignored;
 * - `ui/initialize`, then `ui/notifications/initialized`;
 * - `ui/notifications/size-changed` with the document's size, then whenever it changes;
 * - host requests are answered: `ui/resource-teardown` and `ping` with `{}`, others -32601;
 * - tool results (forwarded by the host, or from its own `tools/call`) are rendered, and a tool
 *   error (`isError`, a JSON-RPC error) is shown in the view, never swallowed.
 *
 * No external origin, so no CSP domains are declared.
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
  #error { color: #b00020; }
</style>
</head>
<body>
<h1>everything</h1>
<dl><dt>calls</dt><dd id="calls">-</dd><dt>refreshed at</dt><dd id="at">-</dd></dl>
<p id="error" role="alert" hidden></p>
<button id="refresh" type="button">Refresh</button>
<script>
  let nextId = 1;
  const pending = new Map();
  const host = window.parent;
  const send = (message) => host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  function request(method, params) {
    const id = nextId++;
    send({ id, method, params });
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  function showError(text) {
    const error = document.getElementById("error");
    error.textContent = text;
    error.hidden = false;
  }
  function textOf(result) {
    const parts = Array.isArray(result && result.content) ? result.content : [];
    return parts.filter((c) => c && c.type === "text").map((c) => c.text).join(" ") || "the tool failed";
  }
  function show(result) {
    if (result && result.isError) return showError(textOf(result));
    const data = result && result.structuredContent;
    if (!data) return;
    document.getElementById("error").hidden = true;
    document.getElementById("calls").textContent = String(data.calls);
    document.getElementById("at").textContent = String(data.at);
  }
  function answer(message) {
    if (message.method === "ui/resource-teardown" || message.method === "ping") return send({ id: message.id, result: {} });
    send({ id: message.id, error: { code: -32601, message: "Method not found: " + String(message.method) } });
  }
  window.addEventListener("message", (event) => {
    if (event.source !== host) return;
    const message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      const waiter = pending.get(message.id);
      if (waiter === undefined) return;
      pending.delete(message.id);
      if (message.error) waiter.reject(new Error(String(message.error.message)));
      else waiter.resolve(message.result);
    } else if (message.id !== undefined) {
      answer(message);
    } else if (message.method === "ui/notifications/tool-result") {
      show(message.params);
    }
  });
  let reported = "";
  function reportSize() {
    const root = document.documentElement;
    const size = { width: Math.ceil(root.scrollWidth), height: Math.ceil(root.scrollHeight) };
    const key = size.width + "x" + size.height;
    if (key === reported) return;
    reported = key;
    send({ method: "ui/notifications/size-changed", params: size });
  }
  document.getElementById("refresh").addEventListener("click", () => {
    request("tools/call", { name: "dashboard_refresh", arguments: {} }).then(show, (error) => showError(error.message));
  });
  request("ui/initialize", { appInfo: { name: "everything-dashboard", version: "1.0.0" }, appCapabilities: {}, protocolVersion: "2026-01-26" }).then(
    () => {
      send({ method: "ui/notifications/initialized" });
      reportSize();
      new ResizeObserver(reportSize).observe(document.documentElement);
    },
    (error) => showError("The host refused the view: " + error.message),
  );
</script>
</body>
</html>
`;
