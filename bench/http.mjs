// Benchmark: tools/call requests per second over Streamable HTTP, under autocannon (32
// connections, loopback), for a bare node:http JSON-RPC floor, our server (@proto/mcp-server
// behind @proto/transport-http's Node adapter, and behind its Web handler bridged to node:http),
// and the official SDK's McpServer + StreamableHTTPServerTransport, in the same run. Each server
// runs in its own child process; the parent only drives autocannon. Uses the BUILT packages:
//   for p in jsonrpc mcp-protocol mcp-server transport-http; do (cd packages/$p && npx tsup); done
//   node bench/http.mjs [--duration 3] [--rounds 7] [--connections 32] [--warmup 2]
// The same file is the child process: `--serve <side>`.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1];
};

const SIDES = {
  floor: "bare node:http JSON-RPC floor",
  "proto-transport": "@proto transport only (Node adapter, raw sink)",
  proto: "@proto (Node adapter)",
  "proto-web": "@proto (Web handler via a Request/Response bridge)",
  "sdk-json": "official SDK (enableJsonResponse)",
  "sdk-sse": "official SDK (default: SSE answers)",
};

// ---- child side ---------------------------------------------------------------------------

function listen(server) {
  server.listen(0, "127.0.0.1", () => {
    process.send?.({ ready: server.address().port });
  });
  process.on("message", (message) => {
    if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
    if (message === "exit") process.exit(0);
  });
}

// The floor: read the body, JSON.parse, answer with JSON.stringify. No validation, no sessions,
// no MCP: the least any JSON-RPC-over-HTTP server must do.
function serveFloor() {
  listen(
    createServer((req, res) => {
      const chunks = [];
      req.on("data", (chunk) => chunks.push(chunk));
      req.on("end", () => {
        const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
        const text = message.params?.arguments?.text ?? "";
        const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text }] } });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      });
    }),
  );
}

const ECHO_SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };

async function protoServer() {
  const { createServer: createMcpServer } = await import("@proto/mcp-server");
  const server = createMcpServer({ name: "bench", version: "1.0.0" });
  server.tool({ name: "echo", inputSchema: ECHO_SCHEMA }, ({ text }) => text);
  return server;
}

async function serveProto() {
  const { createNodeHttpHandler, createNodeHttpServer } = await import("@proto/transport-http/node");
  const server = await protoServer();
  listen(createNodeHttpServer(createNodeHttpHandler({ connect: (transport) => server.connect(transport) })));
}

// The transport alone: the Node adapter with a sink that answers every request at once (no Peer,
// no MCP server), to show what the transport itself costs over the floor.
async function serveProtoTransport() {
  const { createNodeHttpHandler, createNodeHttpServer } = await import("@proto/transport-http/node");
  const connect = (transport) =>
    transport.start({
      payload(payload, exchange) {
        // a sink that is not a Peer finishes each frame itself once its answer is written
        if (Array.isArray(payload) || !("id" in payload) || !("method" in payload)) return exchange.finish?.();
        const result = payload.method === "initialize"
          ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bench", version: "1.0.0" } }
          : { content: [{ type: "text", text: payload.params?.arguments?.text ?? "" }] };
        exchange.reply({ jsonrpc: "2.0", id: payload.id, result }).then(() => exchange.finish?.(), () => exchange.finish?.());
      },
      error() {},
      closed() {},
    });
  listen(createNodeHttpServer(createNodeHttpHandler({ connect })));
}

// What a generic fetch-to-node bridge (such as @hono/node-server) does around a Web handler.
async function serveProtoWeb() {
  const { createStreamableHttpHandler } = await import("@proto/transport-http");
  const server = await protoServer();
  const handler = createStreamableHttpHandler({ connect: (transport) => server.connect(transport) });
  listen(
    createServer(async (req, res) => {
      const chunks = [];
      for await (const chunk of req) chunks.push(chunk);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      const hasBody = req.method !== "GET" && req.method !== "HEAD";
      const request = new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
      const response = await handler(request);
      const out = {};
      response.headers.forEach((value, name) => (out[name] = value));
      res.writeHead(response.status, out);
      if (response.body) for await (const chunk of response.body) res.write(chunk);
      res.end();
    }),
  );
}

async function serveSdk(enableJsonResponse) {
  const require = createRequire(import.meta.url);
  const sdkMcp = require.resolve("@modelcontextprotocol/sdk/server/mcp.js");
  const { z } = createRequire(sdkMcp)("zod");
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  const { randomUUID } = await import("node:crypto");
  const transports = new Map();
  listen(
    createServer(async (req, res) => {
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? transports.get(id) : undefined;
      if (!transport) {
        const server = new McpServer({ name: "bench", version: "1.0.0" });
        server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse,
          onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
        });
        await server.connect(transport);
      }
      await transport.handleRequest(req, res);
    }),
  );
}

// ---- parent side --------------------------------------------------------------------------

function start(side) {
  const child = spawn(process.execPath, [self, "--serve", side], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${side} exited with ${code} before it was ready`)));
    child.once("message", (message) => resolve({ child, port: message.ready }));
  });
}

function cpuOf(child) {
  return new Promise((resolve) => {
    child.once("message", (message) => resolve(message.cpu.user + message.cpu.system));
    child.send("cpu");
  });
}

const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function openSession(url) {
  const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } };
  const response = await fetch(url, { method: "POST", headers: POST_HEADERS, body: JSON.stringify(init) });
  await response.text();
  const headers = { ...POST_HEADERS, "mcp-protocol-version": "2025-11-25" };
  const id = response.headers.get("mcp-session-id");
  if (id) headers["mcp-session-id"] = id;
  const initialized = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
  await initialized.text();
  return headers;
}

async function check(url, headers) {
  const response = await fetch(url, { method: "POST", headers, body: callBody(1) });
  const text = await response.text();
  if (!text.includes("hello, http")) throw new Error(`unexpected answer (${response.status}): ${text.slice(0, 200)}`);
}

const callBody = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: "hello, http" } } });

async function cannon(url, headers, seconds, connections) {
  const { default: autocannon } = await import("autocannon");
  let next = 1;
  return autocannon({
    url,
    connections,
    duration: seconds,
    method: "POST",
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, body: callBody(next++) }) }],
  });
}

/** Starts a side, opens its session, checks one call and warms it up. */
async function prepare(side, warmup, connections) {
  const { child, port } = await start(side);
  const url = `http://127.0.0.1:${port}/mcp`;
  const headers = await openSession(url);
  await check(url, headers);
  await cannon(url, headers, warmup, connections);
  return { side, child, url, headers };
}

async function measure(server, seconds, connections) {
  const before = await cpuOf(server.child);
  const result = await cannon(server.url, server.headers, seconds, connections);
  const cpu = (await cpuOf(server.child)) - before;
  const total = result.requests.total;
  return {
    rps: total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bad: result.non2xx + result.errors + result.timeouts,
    cpuPerRequest: total > 0 ? cpu / total : NaN,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

// Every server runs for the whole benchmark; rounds interleave short runs of each side in a
// rotating order, and ratios are taken within a round, so load that drifts over minutes (a shared
// machine) weighs on both sides of a ratio alike. The median of the per-round ratios is reported.
async function main() {
  const seconds = Number(option("duration", "3"));
  const rounds = Number(option("rounds", "7"));
  const connections = Number(option("connections", "32"));
  const warmup = Number(option("warmup", "2"));
  const sides = Object.keys(SIDES);
  process.stdout.write(`Streamable HTTP tools/call, ${connections} connections, ${seconds} s per run, ${rounds} interleaved rounds, Node ${process.version}\n`);
  const servers = [];
  for (const side of sides) servers.push(await prepare(side, warmup, connections));
  const runs = Object.fromEntries(sides.map((side) => [side, []]));
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (let i = 0; i < servers.length; i += 1) {
        const server = servers[(i + round) % servers.length];
        const run = await measure(server, seconds, connections);
        runs[server.side].push(run);
        process.stdout.write(`  round ${round + 1} ${server.side.padEnd(15)} ${fmt(run.rps).padStart(8)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  ${fmt(run.cpuPerRequest, 1)} CPU µs/req${run.bad ? `  ${run.bad} FAILED` : ""}\n`);
      }
    }
  } finally {
    for (const server of servers) server.child.kill();
  }
  report(sides, runs, rounds);
}

function report(sides, runs, rounds) {
  process.stdout.write(`\n${"".padEnd(52)}req/s median     best   CPU µs/req (server, median)\n`);
  for (const side of sides) {
    const rps = runs[side].map((run) => run.rps);
    const cpu = median(runs[side].map((run) => run.cpuPerRequest));
    process.stdout.write(`  ${SIDES[side].padEnd(50)}${fmt(median(rps)).padStart(10)} ${fmt(Math.max(...rps)).padStart(8)}   ${fmt(cpu, 1).padStart(8)}\n`);
  }
  const perRound = (a, b, field) => median(Array.from({ length: rounds }, (_, r) => runs[a][r][field] / runs[b][r][field]));
  const sdkBest = median(runs["sdk-json"].map((r) => r.rps)) >= median(runs["sdk-sse"].map((r) => r.rps)) ? "sdk-json" : "sdk-sse";
  const line = (label, a, b, target) =>
    process.stdout.write(`  ${label.padEnd(30)} ${fmt(perRound(a, b, "rps"), 2).padStart(6)}x req/s   ${fmt(perRound(a, b, "cpuPerRequest"), 2).padStart(6)}x CPU/req${target ? `   (target ${target})` : ""}\n`);
  process.stdout.write(`\n  ratios (median of per-round ratios)\n`);
  line("@proto / floor", "proto", "floor", ">= 0.5x req/s");
  line(`@proto / SDK best (${sdkBest})`, "proto", sdkBest, ">= 4x req/s");
  line("@proto / SDK default (sse)", "proto", "sdk-sse");
  line("transport only / floor", "proto-transport", "floor");
  line("Web handler / Node adapter", "proto-web", "proto");
}

const serve = option("serve", undefined);
if (serve === "floor") serveFloor();
else if (serve === "proto") await serveProto();
else if (serve === "proto-transport") await serveProtoTransport();
else if (serve === "proto-web") await serveProtoWeb();
else if (serve === "sdk-json") await serveSdk(true);
else if (serve === "sdk-sse") await serveSdk(false);
else if (serve !== undefined) throw new Error(`unknown side ${serve}`);
else {
  try {
    await import("@proto/transport-http/node");
    await import("@proto/mcp-server");
  } catch (error) {
    process.stderr.write(`Build the packages first (see the top of bench/http.mjs): ${error.message}\n`);
    process.exit(1);
  }
  await main();
}
