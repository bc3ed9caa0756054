// Benchmark: the client layer alone. Our client (@proto/mcp-client) against the official SDK's
// Client, in the same run, in-process, both talking to the same server (@proto/mcp-server) over
// the same in-memory pair (@proto/jsonrpc/testing, every message crossing as JSON text), so the
// difference is the client. Scenarios: connect (initialize + initialized), sequential tools/call,
// 100 concurrent tools/call, tools/list of 100 tools.
// Uses the BUILT packages:
//   for p in jsonrpc mcp-protocol mcp-server mcp-client; do (cd packages/$p && npx tsup); done
//   node bench/mcp-client.mjs [--rounds 4] [--connect 300] [--call 10000] [--list 1000]
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const ROUNDS = option("rounds", 4);
const CONNECT = option("connect", 300);
const CALL = option("call", 10000);
const LIST = option("list", 1000);
const CONCURRENCY = 100;
const INFO = { name: "bench-client", version: "1.0.0" };

const server = createServer({ name: "bench", version: "1.0.0" });
for (let i = 0; i < 100; i++) {
  server.tool(
    { name: `tool_${i}`, description: `Tool number ${i}`, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } },
    ({ id }) => id,
  );
}
server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => text);

/** An SDK Transport over one end of our memory pair (the SDK's start/send/close and callbacks). */
function sdkTransport(end) {
  const transport = {
    async start() {
      await end.start({
        payload(payload) {
          for (const message of Array.isArray(payload) ? payload : [payload]) transport.onmessage?.(message);
        },
        error(error) {
          transport.onerror?.(error);
        },
        closed() {
          transport.onclose?.();
        },
      });
    },
    send: (message) => end.send(message),
    close: () => end.close(),
  };
  return transport;
}

async function connectOurs() {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = createClient({ info: INFO, requestTimeoutMs: 0 });
  await client.connect(clientEnd);
  return { call: (name, args) => client.callTool(name, args), list: () => client.listTools(), close: () => client.close() };
}

async function connectSdk() {
  const [clientEnd, serverEnd] = createMemoryTransportPair();
  await server.connect(serverEnd);
  const client = new SdkClient(INFO);
  await client.connect(sdkTransport(clientEnd));
  return { call: (name, args) => client.callTool({ name, arguments: args }), list: () => client.listTools(), close: () => client.close() };
}

async function time(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// Each scenario opens one client of each kind, warms both, then times them in alternating
// chunks (ours, sdk, sdk, ours, ...), so a loaded machine slows both alike. Best round wins.
const CHUNKS = 10;
const sequential = (n) => async (c) => {
  for (let i = 0; i < n; i++) await c.call("echo", { text: "hello" });
};
const concurrent = (n) => async (c) => {
  for (let done = 0; done < n; done += CONCURRENCY) await Promise.all(Array.from({ length: CONCURRENCY }, () => c.call("echo", { text: "hello" })));
};
const listing = (n) => async (c) => {
  for (let i = 0; i < n; i++) await c.list();
};
const scenarios = [
  { name: "call (sequential)", n: CALL, work: sequential },
  { name: `call (${CONCURRENCY} in flight)`, n: CALL, work: concurrent },
  { name: "tools/list (100 tools)", n: LIST, work: listing },
];

async function compare({ n, work }) {
  const clients = { ours: await connectOurs(), sdk: await connectSdk() };
  const totals = { ours: 0, sdk: 0 };
  for (const c of Object.values(clients)) await work(n / CHUNKS)(c);
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    for (const who of chunk % 2 === 0 ? ["ours", "sdk"] : ["sdk", "ours"]) totals[who] += await time(() => work(n / CHUNKS)(clients[who]));
  }
  for (const c of Object.values(clients)) await c.close();
  return totals;
}

async function compareConnect() {
  const totals = { ours: 0, sdk: 0 };
  for (let chunk = 0; chunk < CHUNKS; chunk++) {
    for (const [who, open] of chunk % 2 === 0 ? [["ours", connectOurs], ["sdk", connectSdk]] : [["sdk", connectSdk], ["ours", connectOurs]]) {
      totals[who] += await time(async () => {
        for (let i = 0; i < CONNECT / CHUNKS; i++) await (await open()).close();
      });
    }
  }
  return totals;
}

const results = [];
for (const scenario of [{ name: "connect", n: CONNECT, connect: true }, ...scenarios]) {
  const best = { ours: Infinity, sdk: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    const totals = scenario.connect ? await compareConnect() : await compare(scenario);
    best.ours = Math.min(best.ours, totals.ours);
    best.sdk = Math.min(best.sdk, totals.sdk);
  }
  const perSec = (ms) => Math.round((scenario.n / ms) * 1000);
  results.push({ scenario: scenario.name, "ours ops/s": perSec(best.ours), "sdk ops/s": perSec(best.sdk), "ours / sdk": (best.sdk / best.ours).toFixed(2) + "x" });
}
console.log(`Node ${process.version}, best of ${ROUNDS} rounds, same @proto/mcp-server, JSON over an in-memory pair`);
console.table(results);
await server.close();
