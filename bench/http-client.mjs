// Benchmark: the Streamable HTTP CLIENT transports, ours (@proto/transport-http) beside the
// official SDK's StreamableHTTPClientTransport, against the same bare node:http server (a child
// process that answers tools/call with JSON, or with a one-event SSE stream), in the same run.
// Each side is driven raw (transport + a Map of pending ids), so only the transports differ.
// Uses the BUILT packages:
//   (cd packages/jsonrpc && npx tsup) && (cd packages/transport-http && npx tsup)
//   node bench/http-client.mjs [--rounds 3] [--requests 5000] [--inflight 32]
// The same file is the child process: `--serve`.
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};

// ---- child: a bare Streamable HTTP server ---------------------------------------------------

function serve() {
  const server = createServer((req, res) => {
    if (req.method === "DELETE") return res.writeHead(200).end();
    if (req.method !== "POST") return res.writeHead(405).end();
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (message.id === undefined) return res.writeHead(202).end();
      const sse = new URL(req.url, "http://x").searchParams.get("mode") === "sse";
      const result =
        message.method === "initialize"
          ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "bare", version: "1" } }
          : { content: [{ type: "text", text: message.params?.arguments?.text ?? "" }] };
      const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
      const headers = { "mcp-session-id": "bench-session" };
      if (sse) {
        res.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(`event: message\ndata: ${body}\n\n`);
      } else {
        res.writeHead(200, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) });
        res.end(body);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.send?.({ port: server.address().port }));
  process.on("message", (m) => m === "exit" && process.exit(0));
}

// ---- parent: drivers ----------------------------------------------------------------------

const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

/** A raw driver: `call(message)` resolves with the response of that id. */
function correlator() {
  const pending = new Map();
  return {
    pending,
    settle(message) {
      const resolve = pending.get(message.id);
      if (resolve) {
        pending.delete(message.id);
        resolve(message);
      }
    },
  };
}

async function protoSide(url) {
  const { createStreamableHttpClientTransport } = await import("@proto/transport-http");
  const transport = createStreamableHttpClientTransport(url, { standaloneStream: false });
  const c = correlator();
  await transport.start({
    payload: (payload) => (Array.isArray(payload) ? payload : [payload]).forEach((m) => c.settle(m)),
    error: () => {},
    closed: () => {},
  });
  const call = (message) => new Promise((resolve, reject) => {
    c.pending.set(message.id, resolve);
    transport.send(message).catch(reject);
  });
  await call({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { call, close: () => transport.close() };
}

async function sdkSide(url) {
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const c = correlator();
  transport.onmessage = (m) => c.settle(m);
  transport.onerror = () => {};
  await transport.start();
  const call = (message) => new Promise((resolve, reject) => {
    c.pending.set(message.id, resolve);
    transport.send(message).catch(reject);
  });
  await call({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT });
  transport.setProtocolVersion("2025-11-25");
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { call, close: () => transport.close() };
}

async function run(side, total, inflight) {
  let next = 1;
  let done = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  async function worker() {
    while (next <= total) {
      const id = next++;
      const response = await side.call({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "echo", arguments: { text: `hello ${id}` } } });
      if (response.result?.content?.[0]?.text !== `hello ${id}`) throw new Error(`bad answer for ${id}`);
      done++;
    }
  }
  await Promise.all(Array.from({ length: inflight }, worker));
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { rps: (done / ms) * 1000, cpuUs: (used.user + used.system) / done };
}

async function main() {
  const rounds = option("rounds", 3);
  const total = option("requests", 5000);
  const inflight = option("inflight", 32);
  const child = spawn(process.execPath, [self, "--serve"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const port = await new Promise((resolve) => child.on("message", (m) => m.port && resolve(m.port)));
  const sides = { proto: protoSide, sdk: sdkSide };
  const figures = {};
  for (let round = 0; round < rounds; round++) {
    for (const mode of ["json", "sse"]) {
      const order = round % 2 === 0 ? ["proto", "sdk"] : ["sdk", "proto"];
      for (const name of order) {
        const side = await sides[name](`http://127.0.0.1:${port}/mcp?mode=${mode}`);
        await run(side, 500, inflight);
        const figure = await run(side, total, inflight);
        await side.close();
        (figures[`${mode} ${name}`] ??= []).push(figure);
      }
    }
  }
  child.send("exit");
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`Streamable HTTP client transports, ${total} tools/call per round, ${inflight} in flight, ${rounds} rounds (medians)`);
  console.log("side            req/s     client CPU µs/req");
  const rows = {};
  for (const [key, list] of Object.entries(figures)) {
    rows[key] = { rps: median(list.map((f) => f.rps)), cpu: median(list.map((f) => f.cpuUs)) };
    console.log(`${key.padEnd(14)} ${rows[key].rps.toFixed(0).padStart(7)}   ${rows[key].cpu.toFixed(1).padStart(8)}`);
  }
  for (const mode of ["json", "sse"]) {
    const ours = rows[`${mode} proto`];
    const theirs = rows[`${mode} sdk`];
    console.log(`${mode}: @proto/SDK req/s ${(ours.rps / theirs.rps).toFixed(2)}x, CPU per request ${(theirs.cpu / ours.cpu).toFixed(2)}x less`);
  }
}

if (argv.includes("--serve")) serve();
else await main();
