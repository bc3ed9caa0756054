// The floor server of the client benches over stdio (`node -e FLOOR`): newline JSON, canned answers
// of each era's shape (discover, initialize, tools/list, tools/call echo), nothing else; the
// 2026-07-28 shape (`resultType`, the serverInfo `_meta`) when the request has an envelope.
// Against it, what differs is the client alone.
export const FLOOR = `const INFO = { name: "floor", version: "1" }; let rest = ""; process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { const lines = (rest + chunk).split("\\n"); rest = lines.pop(); let out = "";
  for (const line of lines) { if (line === "") continue; const m = JSON.parse(line); if (m.id === undefined || m.method === undefined) continue;
    let r; const modern = m.params?._meta?.["io.modelcontextprotocol/protocolVersion"] !== undefined;
    if (m.method === "server/discover") r = { supportedVersions: ["2026-07-28", "2025-11-25"], capabilities: { tools: {} } };
    else if (m.method === "initialize") r = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: INFO };
    else if (m.method === "tools/list") r = { tools: [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }] };
    else if (m.method === "tools/call") r = { content: [{ type: "text", text: m.params.arguments.text }] };
    if (r !== undefined && modern) { r.resultType = "complete"; r._meta = { "io.modelcontextprotocol/serverInfo": INFO }; }
    out += JSON.stringify(r === undefined ? { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "Method not found" } } : { jsonrpc: "2.0", id: m.id, result: r }) + "\\n"; }
  if (out !== "") process.stdout.write(out); });`;
