// Benchmark: the client's own cost per tools/call on each wire, in one process, without a real
// server. Our client (@proto/mcp-client) on the 2025-11-25 wire and on the 2026-07-28 wire
// (`protocol: "auto"`, reached through server/discover), and the SDK v2 Client (2.4.0) on the
// 2026-07-28 wire, each over an in-memory pair (@proto/jsonrpc/testing, every message crossing as
// JSON text) to a canned responder that answers every request at once with a fixed result of the
// era's shape. The responder is the same few lines for every side, so CPU per call (this
// process) is the client's cost plus a small constant. Sides alternate in rotating order per
// round; CPU per call is the figure to read on a loaded machine (the load average is printed).
// Uses the BUILT packages: pnpm build, then
//   node bench/mcp-client-eras.mjs [--rounds 6] [--calls 20000] [--only ours-2025,ours-modern,sdk2] [--codec off]
//     [--before <another build's packages/mcp-client/dist/index.js, placed inside packages/mcp-client/>]
// `--codec off` passes messages by reference (no JSON at all): the client's own logic alone.
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@proto/mcp-client";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { Client as Sdk2Client } from "@modelcontextprotocol/client";
import { fmt, fmtRatio, median, medianRatio, option } from "./lib/stats.mjs";

const ROUNDS = option("rounds", 6);
const CALLS = option("calls", 20000);
const CODEC = option("codec", "on") !== "off";
const BEFORE = option("before", "");
const LANES = 64;
const INFO = { name: "bench", version: "1" };
const MODERN = "2026-07-28";
const SERVER_META = { "io.modelcontextprotocol/serverInfo": INFO };
const TOOLS = [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }];
const load = () => loadavg().map((l) => l.toFixed(1)).join(" / ");

/** The canned result of one request, or undefined for a method the responder does not serve. */
function resultOf(message) {
  const modern = message.params?._meta?.["io.modelcontextprotocol/protocolVersion"] === MODERN;
  const stamp = (result) => (modern ? Object.assign(result, { resultType: "complete", _meta: SERVER_META }) : result);
  switch (message.method) {
    case "server/discover":
      return stamp({ supportedVersions: [MODERN, "2025-11-25"], capabilities: { tools: {} } });
    case "initialize":
      return { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: INFO };
    case "tools/list":
      return stamp({ tools: TOOLS });
    case "tools/call":
      return stamp({ content: [{ type: "text", text: message.params.arguments.text }] });
    default:
      return undefined;
  }
}

async function responder(end) {
  await end.start({
    payload(payload) {
      for (const message of Array.isArray(payload) ? payload : [payload]) {
        if (message.id === undefined || message.method === undefined) continue;
        const result = resultOf(message);
        void end.send(result === undefined ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: `no ${message.method}` } } : { jsonrpc: "2.0", id: message.id, result });
      }
    },
    error() {},
    closed() {},
  });
}

async function ours(protocol, create = createClient) {
  const [clientEnd, serverEnd] = createMemoryTransportPair({ wire: CODEC });
  await responder(serverEnd);
  const client = create({ info: INFO, requestTimeoutMs: 0, protocol });
  await client.connect(clientEnd);
  const want = protocol === "2025-11-25" ? "2025-11-25" : MODERN;
  if (client.server?.protocolVersion !== want) throw new Error(`@proto client (${protocol}) speaks ${client.server?.protocolVersion}`);
  return { call: (text) => client.callTool("echo", { text }), close: () => client.close() };
}

/** An SDK Transport over one end of our memory pair. */
function sdkTransport(end) {
  const transport = {
    async start() {
      await end.start({
        payload: (payload) => {
          for (const message of Array.isArray(payload) ? payload : [payload]) transport.onmessage?.(message);
        },
        error: (error) => transport.onerror?.(error),
        closed: () => transport.onclose?.(),
      });
    },
    send: (message) => end.send(message),
    close: () => end.close(),
  };
  return transport;
}

async function sdk2() {
  const [clientEnd, serverEnd] = createMemoryTransportPair({ wire: CODEC });
  await responder(serverEnd);
  const client = new Sdk2Client(INFO, { versionNegotiation: { mode: "auto" } });
  await client.connect(sdkTransport(clientEnd));
  if (client.getNegotiatedProtocolVersion() !== MODERN) throw new Error(`SDK v2 client negotiated ${client.getNegotiatedProtocolVersion()}`);
  return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function drive(side, count, lanes) {
  let sent = 0;
  const cpu0 = cpuNow();
  const lane = async () => {
    while (sent < count) {
      const text = `t${sent++}`;
      const r = await side.call(text);
      if (r.content?.[0]?.text !== text) throw new Error(`wrong answer: ${JSON.stringify(r).slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return (cpuNow() - cpu0) / count;
}

const sides = {
  "ours-2025": { label: "@proto client, 2025-11-25 wire", open: () => ours("2025-11-25") },
  "ours-modern": { label: "@proto client, auto -> 2026-07-28 wire", open: () => ours("auto") },
  sdk2: { label: "SDK v2 client, 2026-07-28 wire", open: sdk2 },
};
if (BEFORE !== "") {
  const before = await import(pathToFileURL(resolve(BEFORE)).href);
  sides["before-2025"] = { label: "(--before) 2025-11-25 wire", open: () => ours("2025-11-25", before.createClient) };
  sides["before-modern"] = { label: "(--before) auto -> 2026-07-28 wire", open: () => ours("auto", before.createClient) };
}
const ONLY = option("only", "").split(",").filter(Boolean);
const names = Object.keys(sides).filter((name) => ONLY.length === 0 || ONLY.includes(name));
process.stdout.write(`Node ${process.version}, load ${load()}; ${ROUNDS} rounds of ${CALLS} calls sequential and ${LANES} in flight per side; JSON ${CODEC ? "on" : "off"}\n`);
const opened = {};
for (const name of names) {
  opened[name] = await sides[name].open();
  await drive(opened[name], CALLS / 4, 1);
  await drive(opened[name], CALLS / 4, LANES);
}
const runs = Object.fromEntries(names.map((n) => [n, { seq: [], par: [] }]));
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < names.length; i++) {
    const name = names[(i + r) % names.length];
    runs[name].seq.push(await drive(opened[name], CALLS, 1));
    runs[name].par.push(await drive(opened[name], CALLS, LANES));
  }
}
for (const side of Object.values(opened)) await side.close();
process.stdout.write(`\nCPU µs per tools/call (client + canned responder), medians of ${ROUNDS} rounds\n${"side".padEnd(40)} ${"sequential".padStart(10)} ${"64 in flight".padStart(13)}   / 2025 seq   / 2025 64\n`);
for (const name of names) {
  const r = runs[name];
  const vs = (mode) => (runs["ours-2025"] === undefined ? "n/a" : fmtRatio(medianRatio(r[mode], runs["ours-2025"][mode])));
  process.stdout.write(`${sides[name].label.padEnd(40)} ${fmt(median(r.seq), 1).padStart(10)} ${fmt(median(r.par), 1).padStart(13)} ${vs("seq").padStart(11)} ${vs("par").padStart(10)}\n`);
}
process.stdout.write(`load at the end ${load()}\n`);
