// Benchmark: one @proto server definition, the 2025 wire against the 2026-07-28 wire, in the
// same run, in-process over an in-memory pair with every message crossing as JSON text (the
// least any real transport costs). tools/list (100 tools) and tools/call of a trivial tool,
// sequential and 64 in flight. The 2025 side initializes once; each modern request carries its
// envelope in `_meta` and gets `resultType`, serverInfo and cache hints back.
// Uses the BUILT packages:
//   for p in jsonrpc mcp-protocol mcp-server; do (cd packages/$p && npx tsup); done
//   node bench/mcp-server-eras.mjs [--rounds 5] [--list 2000] [--call 20000]
// Target (issue 13): the modern wire within 10% of the 2025 wire.
import { createServer } from "@proto/mcp-server";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const ROUNDS = option("rounds", 5);
const LIST = option("list", 2000);
const CALL = option("call", 20000);
const TOOLS = 100;
const ENVELOPE = { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } } };

function server() {
  const s = createServer({ name: "bench", version: "1.0.0" });
  for (let i = 0; i < TOOLS; i++) {
    s.tool(
      { name: `tool_${i}`, description: `Tool number ${i}: does thing ${i} to a record.`, inputSchema: { type: "object", properties: { id: { type: "string" }, count: { type: "integer", minimum: 0 } }, required: ["id"] } },
      ({ id }) => id,
    );
  }
  s.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => text);
  return s;
}

async function connect(modern) {
  const s = server();
  const [clientSide, serverSide] = createMemoryTransportPair({ wire: false });
  const pending = new Map();
  let next = 1;
  await clientSide.start({
    payload: (p) => {
      const m = JSON.parse(JSON.stringify(p));
      const resolve = pending.get(m.id);
      if (resolve) (pending.delete(m.id), resolve(m));
    },
    error() {},
    closed() {},
  });
  await s.connect(serverSide);
  const call = (method, params) => {
    const id = next++;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      void clientSide.send(JSON.parse(JSON.stringify({ jsonrpc: "2.0", id, method, params: modern ? { ...params, ...ENVELOPE } : params })));
    });
  };
  if (!modern) {
    await call("initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
    void clientSide.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
  return { call, close: () => s.close() };
}

async function measure(modern, scale = 1) {
  const { call, close } = await connect(modern);
  const check = await call("tools/call", { name: "echo", arguments: { text: "hi" } });
  if (check.result?.content?.[0]?.text !== "hi" || (modern && check.result.resultType !== "complete")) throw new Error(`tools/call answered ${JSON.stringify(check)}`);
  for (let i = 0; i < 2000; i++) await call("tools/call", { name: "echo", arguments: { text: "hi" } });
  let t = performance.now();
  const lists = Math.ceil(LIST * scale);
  for (let i = 0; i < lists; i++) await call("tools/list", {});
  const list = lists / ((performance.now() - t) / 1000);
  const calls = Math.ceil(CALL * scale);
  t = performance.now();
  for (let i = 0; i < calls; i++) await call("tools/call", { name: "echo", arguments: { text: `hi ${i}` } });
  const seq = calls / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < calls; i += 64) {
    const batch = [];
    for (let j = 0; j < 64; j++) batch.push(call("tools/call", { name: "echo", arguments: { text: `hi ${i + j}` } }));
    await Promise.all(batch);
  }
  const inflight = calls / ((performance.now() - t) / 1000);
  await close();
  return { list, seq, inflight };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) => Math.round(n).toLocaleString("en-US").padStart(9);

for (const modern of [false, true]) await measure(modern, 0.1);
const runs = { legacy: [], modern: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? ["legacy", "modern"] : ["modern", "legacy"]) runs[side].push(await measure(side === "modern"));
}
console.log(`Node ${process.version}, ${ROUNDS} rounds, ${LIST} tools/list (${TOOLS + 1} tools), ${CALL} tools/call sequential and 64 in flight, per round and wire`);
console.log("wire         tools/list/s   tools/call/s seq   tools/call/s 64 in flight");
const m = {};
for (const [side, r] of Object.entries(runs)) {
  m[side] = { list: median(r.map((x) => x.list)), seq: median(r.map((x) => x.seq)), inflight: median(r.map((x) => x.inflight)) };
  console.log(`${(side === "legacy" ? "2025-11-25" : "2026-07-28").padEnd(12)} ${fmt(m[side].list)}      ${fmt(m[side].seq)}          ${fmt(m[side].inflight)}`);
}
const pct = (a, b) => `${((a / b) * 100).toFixed(0)}%`;
console.log(`modern/2025  ${pct(m.modern.list, m.legacy.list).padStart(9)}      ${pct(m.modern.seq, m.legacy.seq).padStart(9)}          ${pct(m.modern.inflight, m.legacy.inflight).padStart(9)}   (target >= 90%)`);
