// Benchmark of @proto/jsonrpc's guards against bare JSON.parse + JSON.stringify.
// Run: (cd packages/jsonrpc && npx tsup) && node bench/jsonrpc.mjs
// Prints ns per message and the ratios; stops by itself. No assertions: figures only.
import { createPeer, decode, deliverFrame, encode, isDepthWithin } from "../packages/jsonrpc/dist/index.js";

const ROUNDS = 21;
const ROUND_MS = 20;
const CHUNK = 64;

function schema(i) {
  return {
    type: "object",
    properties: {
      query: { type: "string", description: `Search query for tool ${i}, free text, at most 200 characters` },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
      filters: { type: "array", items: { type: "object", properties: { field: { type: "string" }, value: { type: "string" } }, required: ["field", "value"] } },
    },
    required: ["query"],
    additionalProperties: false,
  };
}

const toolsCall = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    name: "search_documents",
    arguments: {
      query: "quarterly revenue by region for the last three fiscal years, excluding one-off items",
      limit: 25,
      filters: Array.from({ length: 12 }, (_, i) => ({ field: `metadata.field_${i}`, value: `value number ${i} with some text`.repeat(2) })),
      context: "x".repeat(600),
    },
    _meta: { progressToken: "token-1234567890", "io.modelcontextprotocol/protocolVersion": "2025-11-25" },
  },
};
const toolsListResult = {
  jsonrpc: "2.0",
  id: 7,
  result: {
    tools: Array.from({ length: 6 }, (_, i) => ({
      name: `tool_${i}`,
      title: `Tool number ${i}`,
      description: `Does thing ${i}. A description long enough to look like a real one, with a sentence or two of detail.`,
      inputSchema: schema(i),
      annotations: { readOnlyHint: i % 2 === 0, openWorldHint: false },
    })),
  },
};
const ping = { jsonrpc: "2.0", id: 1, method: "ping" };
const cases = [
  ["ping request", JSON.stringify(ping)],
  ["tools/call request", JSON.stringify(toolsCall)],
  ["tools/list result", JSON.stringify(toolsListResult)],
];
const callResult = { content: [{ type: "text", text: "42 documents found" }], isError: false };

let sinkValue = 0;
const drain = () => new Promise((resolve) => setImmediate(resolve));

/** CPU microseconds (user + system) of this process since `since`. */
function cpuSince(since) {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

/**
 * Calls `fn` n times, letting the event loop turn every CHUNK calls (as a server does between
 * reads), so promises and closures die young instead of piling up for a whole round.
 */
async function run(fn, n) {
  for (let done = 0; done < n; done += CHUNK) {
    for (let i = 0; i < CHUNK; i++) fn();
    await drain();
  }
}

/** Iterations per round so that one round takes about ROUND_MS of CPU time. */
async function calibrate(fn) {
  let n = CHUNK;
  for (;;) {
    const start = process.cpuUsage();
    await run(fn, n);
    if (cpuSince(start) > ROUND_MS * 1000 || n > 1e7) return n;
    n *= 2;
  }
}

/**
 * ns of CPU time per call of each function (process.cpuUsage: time this process ran, so other
 * load on the machine does not count), measured in alternating rounds; each round includes the
 * microtasks its calls queued (see `run`). Returns the median and best round.
 */
async function compare(fns) {
  const sizes = [];
  for (const fn of fns) sizes.push(await calibrate(fn));
  const samples = fns.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < fns.length; k++) {
      const fn = fns[k];
      const n = sizes[k];
      const start = process.cpuUsage();
      await run(fn, n);
      samples[k].push((cpuSince(start) * 1000) / n);
    }
  }
  return samples.map((list) => {
    list.sort((a, b) => a - b);
    return { best: list[0], median: list[Math.floor(list.length / 2)] };
  });
}

const fmt = (ns) => `${ns.toFixed(0).padStart(6)} ns`;
const pct = (ours, bare) => `${ours >= bare ? "+" : ""}${((ours / bare - 1) * 100).toFixed(1)}%`.padStart(7);
const both = (ours, bare) => `${pct(ours.median, bare.median)} (best rounds ${pct(ours.best, bare.best).trim()})`;

/** Section 1: the guards alone. Each section is a function: closures made at the top level of
 *  a module with top-level await were measured unevenly by V8 (one of them 4x slower). */
async function guards() {
console.log("1. decode (size, UTF-8, depth guard, JSON.parse, structure, prototype guard) vs bare JSON.parse");
for (const [name, text] of cases) {
  const bytes = new TextEncoder().encode(text);
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const [bare, ours, bareBytes, oursBytes] = await compare([
    () => { sinkValue += JSON.parse(text).jsonrpc.length; },
    () => { sinkValue += decode(text).ok ? 1 : 0; },
    () => { sinkValue += JSON.parse(utf8.decode(bytes)).jsonrpc.length; },
    () => { sinkValue += decode(bytes).ok ? 1 : 0; },
  ]);
  console.log(`  ${name.padEnd(19)} ${String(text.length).padStart(5)} B`);
  console.log(`    from a string: JSON.parse ${fmt(bare.median)}  decode ${fmt(ours.median)}  ${both(ours, bare)}`);
  console.log(`    from bytes:    TextDecoder+JSON.parse ${fmt(bareBytes.median)}  decode ${fmt(oursBytes.median)}  ${both(oursBytes, bareBytes)}`);
}

}

/** Section 2: the whole inbound path through a Peer. */
async function dispatch() {
console.log("\n2. decode + validate + dispatch to a handler (createPeer) + encode the reply,");
console.log("   vs JSON.parse + the same handler + JSON.stringify of the response");
const sinkHolder = {};
const transport = { async start(sink) { sinkHolder.sink = sink; }, async send() {}, async close() {} };
const peer = createPeer(transport);
peer.handle("tools/call", () => callResult);
peer.handle("ping", () => ({}));
await peer.start();
const exchange = {
  signal: new AbortController().signal,
  info: { transport: "bench" },
  reply(payload) { sinkValue += encode(payload).length; return Promise.resolve(); },
};
const handlers = { "tools/call": () => callResult, ping: () => ({}) };
for (const [name, text] of cases.slice(0, 2)) {
  const [bare, ours] = await compare([
    () => {
      const message = JSON.parse(text);
      const result = handlers[message.method](message.params);
      sinkValue += JSON.stringify({ jsonrpc: "2.0", id: message.id, result }).length;
    },
    () => deliverFrame(decode(text), sinkHolder.sink, exchange),
  ]);
  console.log(`  ${name.padEnd(19)} ${String(text.length).padStart(5)} B  bare ${fmt(bare.median)}  ours ${fmt(ours.median)}  ${both(ours, bare)}`);
}

await peer.close();
}

/** Section 3: the depth guard's throughput, and the 10 MB of [ refusal. */
async function depth() {
console.log("\n3. depth guard (isDepthWithin, maxDepth 64) beside JSON.parse of the same text");
const big = JSON.stringify(Array.from({ length: 300 }, () => toolsListResult));
const nested = JSON.stringify(Array.from({ length: 2000 }, () => JSON.parse("[".repeat(60) + "1" + "]".repeat(60))));
const rows = [["tools/list result", cases[2][1]], ["1.1 MB of results", big], ["250 KB, depth 61", nested]];
for (const [name, text] of rows) {
  const [parse, guard] = await compare([() => { sinkValue += JSON.parse(text) ? 1 : 0; }, () => { sinkValue += isDepthWithin(text, 64) ? 1 : 0; }]);
  const mbps = (ns) => `${(text.length / 1e6 / (ns / 1e9)).toFixed(0).padStart(5)} MB/s`;
  console.log(`  ${name.padEnd(19)} guard ${mbps(guard.median)}   JSON.parse ${mbps(parse.median)}   guard/parse ${(guard.median / parse.median).toFixed(2)}`);
}
const deepText = "[".repeat(10 * 1024 * 1024);
deepText.charCodeAt(0); // flatten the rope `repeat` built, as a received string would be
for (const [name, input] of [["10 MB of [ (string)", deepText], ["10 MB of [ (bytes)", new Uint8Array(10 * 1024 * 1024).fill(0x5b)]]) {
  const start = process.hrtime.bigint();
  const refused = decode(input, { maxMessageBytes: 16 * 1024 * 1024 });
  const ms = (Number(process.hrtime.bigint() - start) / 1e6).toFixed(1);
  console.log(`  decode of ${name}: ${ms} ms -> ${refused.ok ? "ACCEPTED (bug)" : refused.error.error.message}`);
}
}

console.log(`node ${process.version}; CPU ns per message, median of ${ROUNDS} alternating rounds (ratio of the best rounds in brackets)\n`);
await guards();
await dispatch();
await depth();
if (sinkValue === 0.5) console.log(sinkValue);
