// Benchmark: a tools/call through @proto/mcp-gateway beside the same call straight to the child.
// Every side uses our client over stdio; the child is bench/lib/stdio-servers.mjs `proto` (echo +
// 10 tools). Sides:
//   direct    spawns the child
//   pipe      the physical floor: bench/lib/relay.mjs pipes bytes to and from the child (one more
//             process hop, no parsing)
//   json      the floor of a forwarder: the relay splits lines and JSON.parse/stringify's each
//   gateway   `proto-gateway --mcp` with that child behind it (the hop, a server's and a client's
//             work, routing)
//   before    (with `--before CLI`) another build's proto-gateway (its dist/cli.js), for A/B in one run
// Per round and side: `sequential` calls one at a time (latency), then `pipelined` calls with 64
// in flight (throughput). Then gateway start with 5 children, one of which takes `--slow` ms to
// come up: time until tools/list is answered, and how many children's tools it held.
// Beside latency, CPU µs per call of each process (Linux /proc): the relay or gateway process
// against the child alone, which hardly depends on how loaded the machine is; the 1-minute load
// average is printed with every round. Ratios are medians of per-round ratios to direct (the
// sides rotate their order each round).
// Uses the BUILT packages (pnpm build):
//   node bench/gateway.mjs [--rounds 3] [--warmup 5000] [--sequential 500] [--pipelined 5000] [--slow 3000] [--json]
//     [--profile DIR]   the gateway process writes a V8 CPU profile (.cpuprofile) to DIR
//     [--side direct,pipe,json,gateway,before]   the sides to run (default: all; e.g. one with --profile)
//     [--before CLI]   adds the side "before": that build's packages/mcp-gateway/dist/cli.js
//     [--no-start]     skips the start measure
//     [--pairs N]      with --before: then N bursts of --pipelined calls (64 in flight) on "gateway" and
//                      "before" alternately, both connected and warm the whole time: gateway CPU per call
//                      of each burst and the median of the paired differences (after minus before),
//                      finer than whole rounds when the machine's load moves
//     [--progress-token]  every call sends a progress token (as the MCP Inspector does), so the gateway asks
//                      its child for progress too
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { createClient } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { createGateway, createStdioSpawner } from "@proto/mcp-gateway/node";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { cpuUsOf } from "./lib/schedstat.mjs";
import { emitJson, flag, fmt, median, medianRatio, option, summarize } from "./lib/stats.mjs";

const SERVER = fileURLToPath(new URL("./lib/stdio-servers.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../packages/mcp-gateway/dist/cli.js", import.meta.url));
const child = { command: [process.execPath, SERVER, "proto", "--tools", "10"] };
const dir = mkdtempSync(join(tmpdir(), "gw-bench-"));
const config = join(dir, "gateway.json");
writeFileSync(config, JSON.stringify({ mcpServers: { bench: child } }));

const RELAY = fileURLToPath(new URL("./lib/relay.mjs", import.meta.url));
const PROFILE = option("profile", "");
// With --progress-token our client sends a progressToken with each call (an onProgress callback).
const CALL = flag("progress-token") ? { onProgress: () => {} } : undefined;
const BEFORE = option("before", "");
const gatewaySide = (cli) => ({ command: process.execPath, args: [...(PROFILE === "" ? [] : ["--cpu-prof", "--cpu-prof-dir", PROFILE]), cli, "--mcp", "--config", config], tool: "bench__echo" });
const SIDES = {
  direct: { command: process.execPath, args: [SERVER, "proto", "--tools", "10"], tool: "echo" },
  pipe: { command: process.execPath, args: [RELAY, "pipe", "--", ...child.command], tool: "echo" },
  json: { command: process.execPath, args: [RELAY, "json", "--", ...child.command], tool: "echo" },
  gateway: gatewaySide(CLI),
  ...(BEFORE === "" ? {} : { before: gatewaySide(BEFORE) }),
};

// The pids under `pid` (Linux /proc; empty elsewhere): the gateway's child server.
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

// CPU µs of the client (this process), the process it spawned ("server": the child, or the
// gateway) and, for the gateway, its child ("behind"): per call, these do not depend on how
// long the machine made each call wait.
function cpuNow(pid) {
  const own = process.cpuUsage();
  const behind = childrenOf(pid).reduce((sum, p) => sum + (cpuUsOf(p) ?? 0), 0);
  return { client: own.user + own.system, server: cpuUsOf(pid) ?? Number.NaN, behind };
}
function cpuPerCall(before, after, calls) {
  const per = (k) => (after[k] - before[k]) / calls;
  return { client: per("client"), server: per("server"), behind: per("behind") };
}

// `count` calls, 64 in flight.
async function inFlight(client, tool, count, text) {
  let sent = 0;
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (sent < count) {
      sent++;
      await client.callTool(tool, { text }, CALL);
    }
  }));
}

// A client connected to `side`'s process and warmed as `measure` warms it (the caller closes it).
async function connectWarm(side, o) {
  const { command, args, tool } = SIDES[side];
  const client = createClient({ info: { name: "bench", version: "1" }, validateToolOutput: false });
  const transport = createStdioClientTransport({ command, args });
  await client.connect(transport);
  await client.listAllTools();
  await inFlight(client, tool, o.warmup, "warm");
  for (let i = 0; i < o.warmup / 5; i++) await client.callTool(tool, { text: "warm" }, CALL);
  return { client, transport, tool };
}

// `n` bursts alternating between the sides (the order swaps each pair): CPU µs per call of each process.
async function pairs(names, n, o) {
  const open = await Promise.all(names.map((side) => connectWarm(side, o)));
  const cpu = Object.fromEntries(names.map((side) => [side, []]));
  try {
    for (let i = 0; i < n; i++) {
      for (const k of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const { client, transport, tool } = open[k];
        const before = cpuNow(transport.pid);
        await inFlight(client, tool, o.pipelined, "x");
        cpu[names[k]].push(cpuPerCall(before, cpuNow(transport.pid), o.pipelined));
      }
      if (!flag("json")) process.stdout.write(`  pair ${String(i + 1).padStart(2)} load ${loadavg()[0].toFixed(1).padStart(4)}  ${names.map((side) => `${side} ${fmt(cpu[side][i].server, 1)} (child ${fmt(cpu[side][i].behind, 1)})`).join("   ")} µs/call\n`);
    }
  } finally {
    await Promise.all(open.map(({ client }) => client.close()));
  }
  const diff = (k) => median(cpu[names[0]].map((c, i) => c[k] - cpu[names[1]][i][k]));
  return { pairs: n, calls: o.pipelined, gatewayCpuUs: Object.fromEntries(names.map((side) => [side, median(cpu[side].map((c) => c.server))])), medianDifferenceUs: { gateway: diff("server"), child: diff("behind") } };
}

async function measure(side, o) {
  const { command, args, tool } = SIDES[side];
  const client = createClient({ info: { name: "bench", version: "1" }, validateToolOutput: false });
  const transport = createStdioClientTransport({ command, args });
  await client.connect(transport);
  try {
    await client.listAllTools();
    // Warm-up: the gateway runs a server and a client stack, far more code than the child, and
    // its JIT needs thousands of calls to settle (after 200, the next 5,000 calls still paid for
    // tiering: twice the CPU per call of a warm process).
    // One message per read (sequential) takes other paths than batches: both are warmed.
    await inFlight(client, tool, o.warmup, "warm");
    for (let i = 0; i < o.warmup / 5; i++) await client.callTool(tool, { text: "warm" }, CALL);
    const load = loadavg()[0];
    const times = new Float64Array(o.sequential);
    let cpu = cpuNow(transport.pid);
    for (let i = 0; i < o.sequential; i++) {
      const start = performance.now();
      await client.callTool(tool, { text: `hello ${i}` }, CALL);
      times[i] = (performance.now() - start) * 1000;
    }
    const seqCpu = cpuPerCall(cpu, (cpu = cpuNow(transport.pid)), o.sequential);
    const start = performance.now();
    await inFlight(client, tool, o.pipelined, "x");
    const rps = o.pipelined / ((performance.now() - start) / 1000);
    return { latency: summarize(times), rps, seqCpu, pipeCpu: cpuPerCall(cpu, cpuNow(transport.pid), o.pipelined), load };
  } finally {
    await client.close();
  }
}

async function startup(o) {
  const fast = (n) => ({ ...child, description: `fast ${n}` });
  const slow = { command: ["sh", "-c", `sleep ${o.slow / 1000}; exec "$0" "$@"`, ...child.command] };
  const began = performance.now();
  const gateway = createGateway({ name: "gw", stdio: createStdioSpawner(), readyTimeoutMs: 1000, children: { a: fast(1), b: fast(2), c: fast(3), d: fast(4), slow } });
  const [a, b] = createMemoryTransportPair();
  await gateway.connect(b);
  const client = createClient({ info: { name: "bench", version: "1" } });
  await client.connect(a);
  const tools = await client.listAllTools();
  const listedMs = performance.now() - began;
  const children = new Set(tools.map((t) => t.name.split("__")[0]));
  // Until the slow child's tools are listed (a fast child that missed readyTimeoutMs may be announced first).
  let changedMs;
  await new Promise((resolve) =>
    client.on("toolsChanged", async () => {
      const now = await client.listAllTools();
      if (now.some((t) => t.name.startsWith("slow__"))) resolve((changedMs = performance.now() - began));
    }),
  );
  await client.close();
  await gateway.close();
  return { listedMs, childrenListed: children.size, slowAnnouncedMs: changedMs };
}

const o = { rounds: Number(option("rounds", 3)), sequential: Number(option("sequential", 500)), pipelined: Number(option("pipelined", 5000)), slow: Number(option("slow", 3000)), warmup: Number(option("warmup", 5000)) };
const sides = option("side", "") === "" ? Object.keys(SIDES) : option("side", "").split(",");
for (const side of sides) if (SIDES[side] === undefined) throw new TypeError(`--side ${side}: not one of ${Object.keys(SIDES).join(", ")}`);
const runs = Object.fromEntries(sides.map((side) => [side, []]));
const cpuText = (c) => `CPU/call client ${fmt(c.client, 1)} server ${fmt(c.server, 1)}${c.behind > 0 ? ` child ${fmt(c.behind, 1)}` : ""} µs`;
for (let round = 0; round < o.rounds; round++) {
  // The order rotates each round, so no side always runs first (or last) in a round.
  const order = sides.map((_, i) => sides[(i + round) % sides.length]);
  for (const side of round % 2 === 0 ? order : order.reverse()) {
    const run = await measure(side, o);
    runs[side].push(run);
    if (!flag("json")) {
      process.stdout.write(`  round ${round + 1} ${side.padEnd(8)} load ${run.load.toFixed(1).padStart(4)}  seq p50 ${fmt(run.latency.p50).padStart(5)} µs  p99 ${fmt(run.latency.p99).padStart(6)} µs  ${cpuText(run.seqCpu)}\n`);
      process.stdout.write(`  ${" ".repeat(25)} 64 in flight ${fmt(run.rps).padStart(6)} calls/s   ${cpuText(run.pipeCpu)}\n`);
    }
  }
}
const load = loadavg()[0];
const med = (side, f) => median(runs[side].map(f));
// Per side: medians over rounds, and per-round ratios to direct (then their median).
const withDirect = sides.includes("direct");
const summary = (side) => ({
  sequentialP50Us: med(side, (r) => r.latency.p50),
  inFlight64Rps: med(side, (r) => r.rps),
  // CPU µs per call of the process the client spawned (the child itself on the direct side) and of its child.
  sequentialCpuUs: { process: med(side, (r) => r.seqCpu.server), child: med(side, (r) => r.seqCpu.behind) },
  inFlight64CpuUs: { process: med(side, (r) => r.pipeCpu.server), child: med(side, (r) => r.pipeCpu.behind) },
  ...(withDirect && side !== "direct"
    ? { sequentialRatio: medianRatio(runs[side].map((r) => r.latency.p50), runs.direct.map((r) => r.latency.p50)), inFlight64LatencyRatio: medianRatio(runs.direct.map((r) => r.rps), runs[side].map((r) => r.rps)) }
    : {}),
});
const results = { sides: Object.fromEntries(sides.map((side) => [side, summary(side)])), loadAverage: load };
if (sides.includes("gateway") && !flag("no-start")) results.start = await startup(o);
const PAIRS = Number(option("pairs", 0));
if (PAIRS > 0) {
  if (SIDES.before === undefined) throw new TypeError("--pairs needs --before CLI: it alternates the gateway and that build");
  results.pairs = await pairs(["gateway", "before"], PAIRS, o);
}
if (flag("json")) emitJson(results);
else {
  process.stdout.write(`load average ${load.toFixed(1)} (1 min) at the end; medians over rounds, ratios are medians of per-round ratios to direct\n`);
  if (o.rounds > 0) process.stdout.write(`${"side".padEnd(8)} ${"seq p50".padStart(9)} ${"ratio".padStart(6)} ${"64 in flight".padStart(14)} ${"latency".padStart(8)}   CPU µs/call seq: process (its child)   64 in flight: process (its child)\n`);
  for (const side of o.rounds > 0 ? sides : []) {
    const r = results.sides[side];
    const ratio = (x) => (x === undefined ? "" : `${x.toFixed(2)}x`);
    const cpu = (c) => `${fmt(c.process, 1)}${c.child > 0 ? ` (${fmt(c.child, 1)})` : ""}`;
    process.stdout.write(`${side.padEnd(8)} ${`${fmt(r.sequentialP50Us)} µs`.padStart(9)} ${ratio(r.sequentialRatio).padStart(6)} ${`${fmt(r.inFlight64Rps)}/s`.padStart(14)} ${ratio(r.inFlight64LatencyRatio).padStart(8)}   ${cpu(r.sequentialCpuUs).padEnd(30)} ${cpu(r.inFlight64CpuUs)}\n`);
  }
  if (results.start) {
    const st = results.start;
    process.stdout.write(`start, 5 children, one ${o.slow} ms slow: tools/list answered at ${fmt(st.listedMs)} ms with ${st.childrenListed} children's tools; the slow one's tools listed at ${fmt(st.slowAnnouncedMs)} ms\n`);
  }
  if (results.pairs) {
    const pr = results.pairs;
    process.stdout.write(`pairs: ${pr.pairs} x ${pr.calls} calls, 64 in flight, CPU µs per call medians: gateway ${fmt(pr.gatewayCpuUs.gateway, 1)}, before ${fmt(pr.gatewayCpuUs.before, 1)}; median paired difference (gateway - before) ${fmt(pr.medianDifferenceUs.gateway, 2)} µs, its child ${fmt(pr.medianDifferenceUs.child, 2)} µs\n`);
  }
}
