// The paths one request takes (issue 16): the source files of the repository (packages/*/src,
// examples/everything/src) in which at least one function ran while the everything server
// served ONE warmed-up tools/call, over stdio (a line on the transport's stdin) and over
// Streamable HTTP (a POST of an initialized session, SSE answer, event store), and their line
// counts. Measured with V8's precise coverage (node:inspector): counters are reset after the
// warm-up call, read after the measured one. Loads the TypeScript sources through tsx:
//   node --import tsx bench/request-path.mjs
import { readFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

const { createEverythingServer } = await import("../examples/everything/src/everything-server.ts");
const { startHttpServer } = await import("../examples/everything/src/http.ts");
const { serveStdio } = await import("@proto/transport-stdio/node");

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "path", version: "1" } };
const CALL = (id) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "test_simple_text", arguments: {} } });

/** Files of the repository that ran during `act`, with their line counts. */
async function touched(act) {
  await session.post("Profiler.takePreciseCoverage"); // resets the counters
  await act();
  const { result } = await session.post("Profiler.takePreciseCoverage");
  const files = [];
  for (const script of result) {
    if (!script.url.startsWith("file://")) continue;
    const path = fileURLToPath(script.url);
    if (!path.startsWith(ROOT) || path.includes("node_modules") || !/\/(packages\/[^/]+|examples\/everything)\/src\//.test(path)) continue;
    if (!script.functions.some((f) => f.ranges.some((r) => r.count > 0) && f.functionName !== "")) continue;
    files.push({ path: path.slice(ROOT.length), lines: readFileSync(path, "utf8").split("\n").length });
  }
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

async function stdio() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const waiting = new Map();
  let rest = "";
  stdout.setEncoding("utf8").on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) if (line) waiting.get(JSON.parse(line).id)?.();
  });
  const ask = (message) => new Promise((resolve) => (waiting.set(message.id, resolve), stdin.write(`${JSON.stringify(message)}\n`)));
  const { server } = createEverythingServer();
  await serveStdio(server, { stdin, stdout, banner: false, handleSignals: false });
  await ask({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  await ask(CALL(1));
  const files = await touched(() => ask(CALL(2)));
  await server.close();
  return files;
}

async function http() {
  const running = await startHttpServer({ port: 0 });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const init = await fetch(running.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT }) });
  await init.text();
  const session = { ...headers, "mcp-protocol-version": "2025-11-25", "mcp-session-id": init.headers.get("mcp-session-id") };
  await (await fetch(running.url, { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  const call = async (id) => {
    const text = await (await fetch(running.url, { method: "POST", headers: session, body: JSON.stringify(CALL(id)) })).text();
    if (!text.includes("simple text response")) throw new Error(`unexpected answer: ${text.slice(0, 200)}`);
  };
  await call(1);
  const files = await touched(() => call(2));
  await running.close();
  return files;
}

for (const [name, run] of [["stdio", stdio], ["Streamable HTTP (SSE answer, event store)", http]]) {
  const files = await run();
  const lines = files.reduce((sum, f) => sum + f.lines, 0);
  process.stdout.write(`\n${name}: ${files.length} files, ${lines.toLocaleString("en-US")} lines\n`);
  const byPackage = new Map();
  for (const f of files) {
    const pkg = f.path.split("/").slice(0, 2).join("/");
    const entry = byPackage.get(pkg) ?? { files: 0, lines: 0, names: [] };
    entry.files++;
    entry.lines += f.lines;
    entry.names.push(f.path.split("/src/")[1]);
    byPackage.set(pkg, entry);
  }
  for (const [pkg, e] of byPackage) process.stdout.write(`  ${pkg.padEnd(28)} ${String(e.files).padStart(3)} files ${e.lines.toLocaleString("en-US").padStart(6)} lines: ${e.names.join(", ")}\n`);
}
process.exit(0);
