// Benchmark: CPU per 2026-07-28 `tools/call` of @proto/mcp-server's request path for four
// handlers, `sync` (returns the text), `async` (an async function returning it), `io` (an async
// function that waits one `setImmediate` first, as a tool waiting on I/O: its call stays pending
// across a turn of the event loop) and `intercepted` (the async one through an extension's
// pass-through `tools/call` interceptor, as the gateway's), with 64 calls in flight over a memory
// transport passing objects (no codec), and the same four on the 2025-11-25 session path
// (`legacy-sync`, `legacy-async`: no protocol claim, a session connected as initialized).
// The client is a bare sink (ids matched in a Map), so the CPU measured is the server's path plus
// a constant. `--before DIR` adds the same sides from another checkout's build (DIR/packages/
// mcp-server/dist/index.js, e.g. a copy of main after `pnpm build`).
// Every side runs in a process of its own (one per side and round, the order rotating each
// round): the tool's validators compiled first, then `--warmup` calls, then five bursts of
// `--calls`/5, of which the median CPU µs per call (user + system) is the side's figure of the
// round. One process for all sides (`--in-process`, the old way) lets one side's garbage
// collection state weigh on the others: V8 decides per allocation site, for the whole process,
// to allocate in old space once a site's objects are seen surviving, and after that every call
// pays for it. The 1-minute load average is printed with every round.
// Uses the BUILT packages (pnpm build):
//   node bench/modern-handlers.mjs [--rounds 5] [--calls 100000] [--warmup 30000] [--before DIR] [--sides sync,async,...]
//     [--cold]         no `server.ready()` first: the first calls wait for ajv (the cold start of a server)
//     [--in-process]   every side in this process, warmed in turn (the old way)
//     [--json]
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { emitJson, flag, fmt, median, option } from "./lib/stats.mjs";

const o = { rounds: Number(option("rounds", 5)), calls: Number(option("calls", 100000)), warmup: Number(option("warmup", 30000)) };
const BEFORE = option("before", "");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
const SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const ALL = ["sync", "async", "io", "intercepted", "legacy-sync", "legacy-async"];
const HANDLERS = option("sides", "") === "" ? ALL : option("sides", "").split(",");
for (const h of HANDLERS) if (!ALL.includes(h)) throw new TypeError(`--sides ${h}: not one of ${ALL.join(", ")}`);

async function makeServer(build, side) {
  const legacy = side.startsWith("legacy-");
  const handler = legacy ? side.slice("legacy-".length) : side;
  const { createServer } = build === "after" ? await import("@proto/mcp-server") : await import(pathToFileURL(join(resolve(BEFORE), "packages/mcp-server/dist/index.js")).href);
  const server = createServer({ name: "bench", version: "1" });
  if (handler === "sync") server.tool({ name: "echo", inputSchema: SCHEMA }, ({ text }) => text);
  else if (handler === "io") {
    server.tool({ name: "echo", inputSchema: SCHEMA }, async ({ text }) => {
      await new Promise((resolve) => setImmediate(resolve));
      return text;
    });
  } else server.tool({ name: "echo", inputSchema: SCHEMA }, async ({ text }) => text);
  if (handler === "intercepted") server.use({ id: "com.example/pass", intercept: { "tools/call": (params, _ctx, next) => next(params) } });
  // Compiled before the first call: a first burst that waits for ajv (its import and the
  // schema's compile) keeps 64 calls' objects alive across the scavenges of that work, and V8
  // then allocates their sites' objects in old space for the rest of the process (about twice
  // the CPU per call, most of it garbage collection). `--cold` keeps that start.
  if (!flag("cold")) await server.ready();
  const [clientSide, serverSide] = createMemoryTransportPair({ wire: false });
  await server.connect(serverSide, legacy ? { initialized: true } : undefined);
  const waiting = new Map();
  await clientSide.start({
    payload(message) {
      const done = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined || message.result?.content?.[0]?.text !== "x") done.reject(new Error(`unexpected answer ${JSON.stringify(message)}`));
      else done.resolve();
    },
    error() {},
    closed() {},
  });
  let id = 0;
  const call = () =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, { resolve, reject });
      const params = legacy ? { name: "echo", arguments: { text: "x" } } : { name: "echo", arguments: { text: "x" }, _meta: META };
      void clientSide.send({ jsonrpc: "2.0", id: n, method: "tools/call", params });
    });
  return { call };
}

// `count` calls, 64 in flight; CPU µs per call of this process.
async function run(side, count) {
  let sent = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (sent < count) {
        sent++;
        await side.call();
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const builds = BEFORE === "" ? ["after"] : ["after", "before"];
const names = builds.flatMap((b) => HANDLERS.map((h) => `${h} ${b}`));

// One side in this process (`--child NAME`): warmed, then five bursts; prints the median.
async function child(name) {
  const [handler, build] = name.split(" ");
  const side = await makeServer(build, handler);
  await run(side, o.warmup);
  const bursts = [];
  for (let i = 0; i < 5; i++) bursts.push(await run(side, Math.ceil(o.calls / 5)));
  return median(bursts);
}

const CHILD = option("child", "");
if (CHILD !== "") {
  process.stdout.write(`${JSON.stringify({ us: await child(CHILD) })}\n`);
  process.exit(0);
}

const SELF = fileURLToPath(import.meta.url);
const passed = ["--calls", String(o.calls), "--warmup", String(o.warmup), ...(BEFORE === "" ? [] : ["--before", BEFORE]), ...(flag("cold") ? ["--cold"] : [])];
const inProcess = flag("in-process");
const sides = {};
if (inProcess) {
  for (const name of names) {
    const [handler, build] = name.split(" ");
    sides[name] = await makeServer(build, handler);
    await run(sides[name], o.warmup);
  }
}
async function measure(name) {
  if (inProcess) return run(sides[name], o.calls);
  const out = spawnSync(process.execPath, [SELF, "--child", name, ...passed], { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`side ${name} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").at(-1)).us;
}
const runs = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < o.rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  const line = [];
  for (const name of round % 2 === 0 ? order : order.reverse()) {
    const us = await measure(name);
    runs[name].push(us);
    line.push(`${name} ${fmt(us, 2)}`);
  }
  if (!flag("json")) process.stdout.write(`round ${round + 1} load ${loadavg()[0].toFixed(1)}: ${line.join(", ")} µs/call\n`);
}
// per round, after minus before of the same handler (both measured in that round)
const paired = (handler) => median(runs[`${handler} after`].map((us, i) => us - runs[`${handler} before`][i]));
const results = {
  cpuUsPerCall: Object.fromEntries(names.map((n) => [n, { median: median(runs[n]), rounds: runs[n] }])),
  ...(BEFORE === "" ? {} : { medianPairedDifferenceUs: Object.fromEntries(HANDLERS.map((h) => [h, paired(h)])) }),
  loadAverage: loadavg()[0],
};
if (flag("json")) emitJson(results);
else {
  process.stdout.write(`medians over ${o.rounds} rounds of ${o.calls} calls, 64 in flight (CPU µs per call${inProcess ? ", one process" : ", a process per side"}):\n`);
  for (const handler of HANDLERS) {
    const after = results.cpuUsPerCall[`${handler} after`].median;
    const before = results.cpuUsPerCall[`${handler} before`]?.median;
    process.stdout.write(`  ${handler.padEnd(12)} after ${fmt(after, 2)}${before === undefined ? "" : `  before ${fmt(before, 2)}  (median paired difference ${fmt(paired(handler), 2)})`}\n`);
  }
}
process.exit(0);
