// Benchmark: the server layer alone. `tools/list` with 100 tools and `tools/call` of a trivial
// tool, our server (@proto/mcp-server) against the official SDK's McpServer, in the same run,
// in-process, each over an in-memory pair driven by the same minimal raw JSON-RPC client (no SDK
// Client, no @proto client), so the difference is the server. Two modes:
//   - objects: messages passed by reference (the SDK's InMemoryTransport way);
//   - json:    every message crosses as JSON text both ways (JSON.stringify + JSON.parse, the same
//              code on both sides: what any real transport costs at least).
// Uses the BUILT packages:
//   for p in jsonrpc mcp-protocol mcp-server; do (cd packages/$p && npx tsup); done
//   node bench/mcp-server.mjs [--rounds 5] [--list 2000] [--call 20000]
// Targets (issue 4): tools/list >= 10x faster, tools/call >= 2x faster.
import { createRequire } from "node:module";
import { createServer } from "@proto/mcp-server";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";

const require = createRequire(import.meta.url);
const { z } = createRequire(require.resolve("@modelcontextprotocol/sdk/server/mcp.js"))("zod");

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const ROUNDS = option("rounds", 5);
const LIST = option("list", 2000);
const CALL = option("call", 20000);
const TOOLS = 100;
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };

// ---- the two servers, with the same 100 tools ----------------------------------------------

function toolSpec(i) {
  return { name: `tool_${i}`, description: `Tool number ${i}: does thing ${i} to a record.` };
}

function protoServer() {
  const server = createServer({ name: "bench", version: "1.0.0" });
  for (let i = 0; i < TOOLS; i++) {
    server.tool(
      {
        ...toolSpec(i),
        inputSchema: {
          type: "object",
          properties: { id: { type: "string" }, count: { type: "integer", minimum: 0 }, tags: { type: "array", items: { type: "string" } } },
          required: ["id"],
        },
      },
      ({ id }) => id,
    );
  }
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => text);
  return server;
}

function sdkServer() {
  const server = new McpServer({ name: "bench", version: "1.0.0" });
  for (let i = 0; i < TOOLS; i++) {
    server.registerTool(
      toolSpec(i).name,
      { description: toolSpec(i).description, inputSchema: { id: z.string(), count: z.number().int().min(0).optional(), tags: z.array(z.string()).optional() } },
      async ({ id }) => ({ content: [{ type: "text", text: id }] }),
    );
  }
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  return server;
}

// ---- the same raw client on both sides -------------------------------------------------------

/** A raw client over a `send(message)`; `receive(message)` is wired to what the server sends. */
function rawClient(send) {
  const pending = new Map();
  let next = 1;
  return {
    receive(message) {
      const resolve = pending.get(message.id);
      if (resolve) {
        pending.delete(message.id);
        resolve(message);
      }
    },
    call(method, params) {
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        send({ jsonrpc: "2.0", id, method, params });
      });
    },
    notify(method) {
      send({ jsonrpc: "2.0", method });
    },
  };
}

const copy = (json) => (message) => (json ? JSON.parse(JSON.stringify(message)) : message);

async function connectProto(json) {
  const server = protoServer();
  // Objects cross by reference; in json mode, the same plain JSON round trip as the SDK side.
  const through = copy(json);
  const [clientSide, serverSide] = createMemoryTransportPair({ wire: false });
  const client = rawClient((message) => void clientSide.send(through(message)));
  await clientSide.start({ payload: (p) => client.receive(through(p)), error() {}, closed() {} });
  await server.connect(serverSide);
  return { client, close: () => server.close() };
}

/** A linked pair of SDK-shaped transports (start/send/close + onmessage), like the SDK's InMemoryTransport. */
async function connectSdk(json) {
  const server = sdkServer();
  const through = copy(json);
  let client;
  const serverTransport = {
    async start() {},
    async send(message) {
      const m = through(message);
      queueMicrotask(() => client.receive(m));
    },
    async close() {
      serverTransport.onclose?.();
    },
  };
  client = rawClient((message) => {
    const m = through(message);
    queueMicrotask(() => serverTransport.onmessage?.(m));
  });
  await server.connect(serverTransport);
  return { client, close: () => server.close() };
}

// ---- measurement ---------------------------------------------------------------------------

async function measure(connect, json, scale = 1) {
  const { client, close } = await connect(json);
  const init = await client.call("initialize", INIT);
  if (init.error) throw new Error(`initialize failed: ${JSON.stringify(init.error)}`);
  client.notify("notifications/initialized");
  const list = await client.call("tools/list", {});
  if (list.result?.tools?.length !== TOOLS + 1) throw new Error(`tools/list returned ${list.result?.tools?.length} tools`);
  const call = await client.call("tools/call", { name: "echo", arguments: { text: "hi" } });
  if (call.result?.content?.[0]?.text !== "hi") throw new Error(`tools/call answered ${JSON.stringify(call)}`);
  for (let i = 0; i < 200; i++) await client.call("tools/list", {});
  for (let i = 0; i < 2000; i++) await client.call("tools/call", { name: "echo", arguments: { text: "hi" } });
  let t = performance.now();
  const lists = Math.ceil(LIST * scale);
  for (let i = 0; i < lists; i++) await client.call("tools/list", {});
  const listPerSec = lists / ((performance.now() - t) / 1000);
  const calls = Math.ceil(CALL * scale);
  t = performance.now();
  for (let i = 0; i < calls; i++) await client.call("tools/call", { name: "echo", arguments: { text: `hi ${i}` } });
  const callPerSec = calls / ((performance.now() - t) / 1000);
  await close();
  return { listPerSec, callPerSec };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString("en-US").padStart(9);

// One discarded pass over every side and mode, so neither is measured while the JIT is cold.
for (const json of [false, true]) for (const connect of [connectProto, connectSdk]) await measure(connect, json, 0.1);

const results = {};
for (const json of [false, true]) {
  const mode = json ? "json" : "objects";
  const runs = { proto: [], sdk: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["proto", "sdk"] : ["sdk", "proto"];
    for (const side of order) runs[side].push(await measure(side === "proto" ? connectProto : connectSdk, json));
  }
  results[mode] = runs;
}

console.log(`Node ${process.version}, ${ROUNDS} rounds, ${LIST} tools/list (100 tools) and ${CALL} tools/call per round and side, sequential`);
console.log("mode      side     tools/list per s (median)   tools/call per s (median)");
for (const [mode, runs] of Object.entries(results)) {
  const p = { list: median(runs.proto.map((r) => r.listPerSec)), call: median(runs.proto.map((r) => r.callPerSec)) };
  const s = { list: median(runs.sdk.map((r) => r.listPerSec)), call: median(runs.sdk.map((r) => r.callPerSec)) };
  console.log(`${mode.padEnd(9)} @proto   ${fmt(p.list)}                   ${fmt(p.call)}`);
  console.log(`${mode.padEnd(9)} SDK      ${fmt(s.list)}                   ${fmt(s.call)}`);
  console.log(`${mode.padEnd(9)} ratio    ${(p.list / s.list).toFixed(1).padStart(8)}x (target 10x)      ${(p.call / s.call).toFixed(1).padStart(8)}x (target 2x)`);
}
