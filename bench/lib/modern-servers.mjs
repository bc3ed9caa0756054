// Child processes of bench/modern-wire.mjs: one `echo` tool served over stdio or over
// Streamable HTTP (127.0.0.1, port 0, the port reported over IPC), four ways:
//   floor   newline-JSON / node:http doing only JSON.parse and JSON.stringify; a request with the
//           2026-07-28 claim gets the modern result shape (resultType, serverInfo _meta), so the
//           floor writes as many bytes as a real server
//   proto   @proto/mcp-server (both eras from one definition) + serveStdio / createNodeHttpHandler
//   sdk2    the official SDK v2 server (@modelcontextprotocol/server 2.4.0): serveStdio, and
//           createMcpHandler's fetch handler behind a node:http bridge (it has no Node adapter)
//   before  proto from another build of the packages (`--before NAME` of bench/modern-wire.mjs:
//           a snapshot made with `--snapshot NAME`, in packages/<pkg>/node_modules/.NAME/)
// Run: node bench/lib/modern-servers.mjs <side> <stdio|http> [NAME]. Uses the BUILT packages.
import { createServer } from "node:http";
import { Readable } from "node:stream";

const CLAIM = "io.modelcontextprotocol/protocolVersion";
const INFO = { name: "bench", version: "1.0.0" };
const ECHO_SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

/** The floor's answer to one message (undefined for a notification). */
function floorAnswer(message) {
  if (message.id === undefined) return undefined;
  const modern = message.params?._meta?.[CLAIM] !== undefined;
  let result = {};
  if (message.method === "initialize") result = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: INFO };
  else if (message.method === "tools/call") result = { content: [{ type: "text", text: message.params.arguments.text }] };
  if (modern) Object.assign(result, { resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": INFO } });
  return { jsonrpc: "2.0", id: message.id, result };
}

function floorStdio() {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) {
      const answer = line.length === 0 ? undefined : floorAnswer(JSON.parse(line));
      if (answer !== undefined) out += `${JSON.stringify(answer)}\n`;
    }
    if (out.length > 0) process.stdout.write(out);
  });
}

function floorHttp() {
  return createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const answer = floorAnswer(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      if (answer === undefined) return void res.writeHead(202).end();
      const body = JSON.stringify(answer);
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

// the "before" side imports the same entry points from a snapshot directory
const BUILD = process.argv[4];
const load = (pkg, entry = "index") =>
  import(BUILD === undefined ? `@proto/${pkg}${entry === "index" ? "" : `/${entry}`}` : new URL(`../../packages/${pkg}/node_modules/.${BUILD}/${entry}.js`, import.meta.url).href);

async function protoServer() {
  const { createServer: createMcpServer } = await load("mcp-server");
  const server = createMcpServer(INFO);
  server.tool({ name: "echo", inputSchema: ECHO_SCHEMA }, ({ text }) => text);
  return server;
}

async function protoStdio() {
  const { serveStdio } = await load("transport-stdio", "node");
  await serveStdio(await protoServer(), { banner: false });
}

async function protoHttp() {
  const { createNodeHttpHandler, createNodeHttpServer } = await load("transport-http", "node");
  const server = await protoServer();
  return createNodeHttpServer(createNodeHttpHandler({ connect: (transport) => server.connect(transport) }));
}

async function sdk2Factory() {
  const { McpServer } = await import("@modelcontextprotocol/server");
  const { z } = await import("zod");
  return () => {
    const server = new McpServer(INFO);
    server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    return server;
  };
}

async function sdk2Stdio() {
  const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
  serveStdio(await sdk2Factory());
}

async function sdk2Http() {
  const { createMcpHandler } = await import("@modelcontextprotocol/server");
  const handler = createMcpHandler(await sdk2Factory());
  return createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
    const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body }));
    const out = {};
    response.headers.forEach((value, name) => (out[name] = value));
    res.writeHead(response.status, out);
    if (response.body === null) return void res.end();
    Readable.fromWeb(response.body).pipe(res);
  });
}

const SIDES = { floor: { stdio: floorStdio, http: floorHttp }, proto: { stdio: protoStdio, http: protoHttp }, before: { stdio: protoStdio, http: protoHttp }, sdk2: { stdio: sdk2Stdio, http: sdk2Http } };

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [side, wire] = process.argv.slice(2);
  const serve = SIDES[side]?.[wire];
  if (!serve) throw new Error(`usage: modern-servers.mjs <${Object.keys(SIDES).join("|")}> <stdio|http>`);
  const http = await serve();
  if (wire === "http") {
    // an idle keep-alive socket closed between rounds (5 s by default) would fail a client's next POST
    http.keepAliveTimeout = 120_000;
    http.listen(0, "127.0.0.1", () => process.send?.({ ready: http.address().port }));
    process.on("message", (message) => {
      if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
      if (message === "exit") process.exit(0);
    });
  }
}
