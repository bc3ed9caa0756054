// Benchmark (issue 15): the client side of a forwarded call, as @proto/mcp-gateway makes it. Our
// client with a gateway child's options (2026-07-28 reached by `protocol: "auto"`, requestTimeoutMs
// 60,000, maxTotalTimeoutMs 600,000, no output validation, sampling / elicitation / roots and the
// MCP Apps extension declared, a signal on every call) calls `echo` over stdio, 64 in flight,
// against a floor server (canned answers of the 2026-07-28 shape, bench/mcp-client-wire.mjs's) or
// the gateway's bench child (`--server proto`: bench/lib/stdio-servers.mjs proto).
// This process hosts only the client (and the loop that drives it), so its CPU per call is the
// client path: callTool, the requester, the envelope, @proto/jsonrpc's peer and codec, the stdio
// transport's write and read.
// With `--before DIR` (another build's packages/ folder, e.g. a copy of main's built packages),
// both builds stay connected and warm, and `--pairs` bursts alternate between them (the order
// swapping each pair): CPU µs per call per burst and the median of the paired differences, the
// garbage collections per 1,000 calls, and with `--alloc` one burst each under V8's sampling heap
// profiler (objects already collected counted): bytes allocated per call and where.
// Uses the BUILT packages: pnpm build, then
//   node bench/mcp-client-call.mjs [--before DIR] [--pairs 12] [--calls 20000] [--warmup 20000]
//     [--server floor|proto] [--alloc] [--alloc-top 25] [--no-signal] [--progress]
import { Session } from "node:inspector";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { PerformanceObserver } from "node:perf_hooks";
import { FLOOR } from "./lib/floor-server.mjs";
import { flag, fmt, median, option } from "./lib/stats.mjs";

const SERVERS = fileURLToPath(new URL("./lib/stdio-servers.mjs", import.meta.url));
const BEFORE = option("before", "");
const PAIRS = option("pairs", 12);
const CALLS = option("calls", 20000);
const WARMUP = option("warmup", 20000);
const SERVER = option("server", "floor");
const ALLOC_TOP = option("alloc-top", 25);
const LANES = 64;
const NO_SIGNAL = flag("no-signal");
const PROGRESS = flag("progress");
const INFO = { name: "bench-gateway", version: "1" };
const load = () => loadavg()[0].toFixed(1);

const serverCommand = SERVER === "floor" ? { command: process.execPath, args: ["-e", FLOOR] } : { command: process.execPath, args: [SERVERS, SERVER, "--tools", "10"] };

async function load_(dir) {
  if (dir === undefined) return { client: await import("@proto/mcp-client"), stdio: await import("@proto/transport-stdio/node") };
  const at = (p) => import(pathToFileURL(resolve(join(dir, p))).href);
  return { client: await at("mcp-client/dist/index.js"), stdio: await at("transport-stdio/dist/node.js") };
}

/** A client configured as the gateway configures a child's (packages/mcp-gateway/src/child-client.ts). */
async function open(build) {
  const { createClient } = build.client;
  const client = createClient({
    info: INFO,
    transport: () => build.stdio.createStdioClientTransport(serverCommand),
    protocol: "auto",
    reconnect: { retries: 0 },
    requestTimeoutMs: 60_000,
    maxTotalTimeoutMs: 600_000,
    validateToolOutput: false,
    maxPages: 64,
    extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    sampling: { tools: true, context: true, createMessage: async () => ({ role: "assistant", content: { type: "text", text: "" }, model: "none" }) },
    elicitation: { form: async () => ({ action: "decline" }), url: async () => ({ action: "decline" }) },
    roots: async () => [],
  });
  await client.connect();
  if (client.server?.protocolVersion !== "2026-07-28") throw new Error(`the client speaks ${client.server?.protocolVersion}, expected 2026-07-28`);
  await client.listAllTools();
  // The gateway lends each call a live signal from a pool (packages/mcp-gateway/src/cancel-watch.ts), and
  // makes the options object per call.
  const free = [];
  const onProgress = () => {};
  const call = async (text) => {
    const controller = free.pop() ?? new AbortController();
    const options = NO_SIGNAL ? undefined : PROGRESS ? { signal: controller.signal, onProgress } : { signal: controller.signal };
    const r = await client.callTool("echo", { text }, options);
    free.push(controller);
    if (r.content?.[0]?.text !== text) throw new Error(`wrong answer: ${JSON.stringify(r).slice(0, 300)}`);
  };
  return { call, close: () => client.close() };
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

let gcs = 0;
new PerformanceObserver((list) => (gcs += list.getEntries().length)).observe({ entryTypes: ["gc"] });

/** `count` calls, 64 in flight: CPU µs and garbage collections per call. */
async function burst(side, count) {
  let sent = 0;
  const gc0 = gcs;
  const cpu0 = cpuNow();
  await Promise.all(Array.from({ length: LANES }, async () => {
    while (sent < count) await side.call(`t${sent++}`);
  }));
  const cpu = (cpuNow() - cpu0) / count;
  // The observer is called in a later turn: one turn for the last collections to be counted.
  await new Promise((r) => setImmediate(r));
  return { cpu, gcs: (gcs - gc0) / count };
}

const session = new Session();
session.connect();
const post = (method, params = {}) => new Promise((res, rej) => session.post(method, params, (e, r) => (e ? rej(e) : res(r))));

/** One burst under the sampling heap profiler: bytes allocated per call, in total and by function (inlined callees count in their caller). */
async function allocation(side, count) {
  await post("HeapProfiler.enable");
  await post("HeapProfiler.startSampling", { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  await burst(side, count);
  const { profile } = await post("HeapProfiler.stopSampling");
  const by = new Map();
  let total = 0;
  const walk = (node) => {
    const f = node.callFrame;
    const where = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/packages\//, "").replace(/^.*\/bench\//, "bench/")}${f.url === "" ? "" : `:${f.lineNumber + 1}`}`;
    by.set(where, (by.get(where) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return { bytesPerCall: total / count, top: [...by].sort((a, b) => b[1] - a[1]).slice(0, ALLOC_TOP).map(([where, bytes]) => ({ where, bytes: bytes / count })) };
}

const names = BEFORE === "" ? ["after"] : ["after", "before"];
const sides = {};
for (const name of names) sides[name] = await open(await load_(name === "before" ? BEFORE : undefined));
process.stdout.write(`Node ${process.version}, load ${load()}; server ${SERVER}; ${PAIRS} pairs of ${CALLS} calls, 64 in flight${flag("no-signal") ? ", no signal" : ""}${flag("progress") ? ", with onProgress" : ""}\n`);
for (const name of names) {
  await burst(sides[name], WARMUP);
  for (let i = 0; i < WARMUP / 10; i++) await sides[name].call("w");
}
const runs = Object.fromEntries(names.map((n) => [n, []]));
for (let i = 0; i < PAIRS; i++) {
  for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
    if (names[k] === undefined) continue;
    runs[names[k]].push(await burst(sides[names[k]], CALLS));
  }
  process.stdout.write(`  pair ${String(i + 1).padStart(2)} load ${load().padStart(4)}  ${names.map((n) => `${n} ${fmt(runs[n][i].cpu, 2)} µs (${fmt(runs[n][i].gcs * 1000, 2)} GC/1k)`).join("   ")}\n`);
}
const med = (n, k) => median(runs[n].map((r) => r[k]));
process.stdout.write(`client CPU µs per call, medians: ${names.map((n) => `${n} ${fmt(med(n, "cpu"), 2)} (${fmt(med(n, "gcs") * 1000, 2)} GC per 1,000 calls)`).join(", ")}`);
if (names.length === 2) {
  const d = median(runs.after.map((r, i) => r.cpu - runs.before[i].cpu));
  process.stdout.write(`; median paired difference (after - before) ${d >= 0 ? "+" : ""}${fmt(d, 2)} µs`);
}
process.stdout.write(`; load ${load()}\n`);
if (flag("alloc")) {
  for (const name of names) {
    const a = await allocation(sides[name], CALLS);
    process.stdout.write(`\n${name}: ${fmt(a.bytesPerCall)} bytes allocated per call (sampled); by function:\n`);
    for (const { where, bytes } of a.top) process.stdout.write(`  ${fmt(bytes).padStart(6)} B  ${where}\n`);
  }
}
for (const side of Object.values(sides)) await side.close();
session.disconnect();
