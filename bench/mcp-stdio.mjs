// Benchmark: MCP over stdio between two node processes, side by side in one run:
//   the bare newline-JSON floor, our jsonrpc Peer alone, our client + server, and the official
//   SDK's Client + McpServer (see bench/lib/stdio-servers.mjs for what each side runs).
// Per round and side, one fresh server process: initialize, `warmup` pipelined calls,
// `sequential` calls one at a time (latency), then pipelined calls with 64 in flight
// (throughput) up to 20,000 calls in all, then the server's RSS, then `lists` sequential
// tools/list of 100 tools (+ echo). Sides rotate order between rounds; figures are medians over
// rounds and ratios are medians of per-round ratios. Uses the BUILT packages (pnpm build):
//   node bench/mcp-stdio.mjs [--rounds 3] [--sequential 1000] [--warmup 1000] [--lists 100] [--json]
import { performance } from "node:perf_hooks";
import { cpuOf, rssOf } from "./lib/proc.mjs";
import { emitJson, flag, fmt, fmtRatio, median, medianRatio, option, summarize } from "./lib/stats.mjs";
import { STDIO_SIDES } from "./lib/stdio-clients.mjs";

const TOTAL_CALLS = 20_000;
const WINDOW = 64;

async function sequential(client, count) {
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await client.call(`hello ${i}`);
    times[i] = (performance.now() - start) * 1000;
  }
  return summarize(times);
}

async function pipelined(client, total) {
  let sent = 0;
  const cpu = process.cpuUsage();
  const childBefore = cpuOf(client.pid);
  const start = performance.now();
  const lane = async () => {
    while (sent < total) await client.call(`hello ${sent++}`);
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  const seconds = (performance.now() - start) / 1000;
  const own = process.cpuUsage(cpu);
  const childUs = (cpuOf(client.pid) ?? Number.NaN) - (childBefore ?? Number.NaN);
  return { rps: total / seconds, cpuPerCall: (own.user + own.system + childUs) / total };
}

async function lists(client, count) {
  const start = performance.now();
  for (let i = 0; i < count; i++) await client.list();
  return ((performance.now() - start) * 1000) / count;
}

async function measure(side, o) {
  const client = await STDIO_SIDES[side].open(100);
  try {
    const check = await client.call("check");
    if (!JSON.stringify(check).includes("check")) throw new Error(`${side}: echo answered ${JSON.stringify(check)}`);
    const listed = await client.list();
    if (listed.tools?.length !== 101) throw new Error(`${side}: tools/list returned ${listed.tools?.length} tools`);
    await pipelined(client, o.warmup);
    const latency = await sequential(client, o.sequential);
    const throughput = await pipelined(client, TOTAL_CALLS - o.warmup - o.sequential - 1);
    const rss = rssOf(client.pid);
    const listUs = await lists(client, o.lists);
    return { latency, ...throughput, rss, listUs };
  } finally {
    await client.close();
  }
}

export async function runMcpStdio(o) {
  const sides = Object.keys(STDIO_SIDES);
  const runs = Object.fromEntries(sides.map((s) => [s, []]));
  for (let round = 0; round < o.rounds; round++) {
    const order = [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)];
    for (const side of order) {
      const run = await measure(side, o);
      runs[side].push(run);
      if (!o.quiet) {
        process.stdout.write(
          `  round ${round + 1} ${side.padEnd(11)} seq p50 ${fmt(run.latency.p50).padStart(5)} µs  64 in flight ${fmt(run.rps).padStart(7)} calls/s  ${fmt(run.cpuPerCall, 1).padStart(6)} CPU µs/call  RSS ${fmt(run.rss / 2 ** 20, 1)} MB  tools/list ${fmt(run.listUs).padStart(6)} µs\n`,
        );
      }
    }
  }
  const summary = {};
  for (const side of sides) {
    const r = runs[side];
    summary[side] = {
      label: STDIO_SIDES[side].label,
      latencyP50Us: median(r.map((x) => x.latency.p50)),
      latencyMeanUs: median(r.map((x) => x.latency.mean)),
      latencyP99Us: median(r.map((x) => x.latency.p99)),
      callsPerSec: median(r.map((x) => x.rps)),
      cpuUsPerCall: median(r.map((x) => x.cpuPerCall)),
      rssBytes: median(r.map((x) => x.rss)),
      toolsListUs: median(r.map((x) => x.listUs)),
    };
  }
  const ratio = (a, b, field) => medianRatio(runs[a].map(field), runs[b].map(field));
  const ratios = {
    throughputVsFloor: ratio("proto", "floor", (x) => x.rps),
    throughputVsSdk: ratio("proto", "sdk", (x) => x.rps),
    peerThroughputVsFloor: ratio("proto-peer", "floor", (x) => x.rps),
    latencyMeanVsFloor: ratio("proto", "floor", (x) => x.latency.mean),
    latencyMeanVsSdk: ratio("proto", "sdk", (x) => x.latency.mean),
    latencyP50VsFloor: ratio("proto", "floor", (x) => x.latency.p50),
    throughputVsCoalescedFloor: ratio("proto", "floor-coalesced", (x) => x.rps),
    toolsListVsFloor: ratio("proto", "floor", (x) => x.listUs),
    toolsListSpeedupVsSdk: ratio("sdk", "proto", (x) => x.listUs),
    callCpuVsFloor: ratio("proto", "floor", (x) => x.cpuPerCall),
    rssVsFloor: ratio("proto", "floor", (x) => x.rss),
    rssVsSdk: ratio("proto", "sdk", (x) => x.rss),
  };
  return { options: o, runs, summary, ratios };
}

function print(result) {
  const { summary: s, ratios: r } = result;
  process.stdout.write(`\n${"".padEnd(46)}seq µs p50 / mean   64 in flight calls/s   CPU µs/call   RSS after 20k   tools/list µs\n`);
  for (const side of Object.keys(s)) {
    const x = s[side];
    process.stdout.write(
      `  ${x.label.padEnd(44)}${fmt(x.latencyP50Us).padStart(6)} / ${fmt(x.latencyMeanUs).padStart(5)}   ${fmt(x.callsPerSec).padStart(12)}   ${fmt(x.cpuUsPerCall, 1).padStart(11)}   ${fmt(x.rssBytes / 2 ** 20, 1).padStart(10)} MB   ${fmt(x.toolsListUs).padStart(9)}\n`,
    );
  }
  process.stdout.write(`\n  ratios (median of per-round ratios)\n`);
  process.stdout.write(`  throughput @proto / floor   ${fmtRatio(r.throughputVsFloor)}  (target >= 0.7x)   / coalesced floor ${fmtRatio(r.throughputVsCoalescedFloor)}   / SDK ${fmtRatio(r.throughputVsSdk)}   Peer alone / floor ${fmtRatio(r.peerThroughputVsFloor)}\n`);
  process.stdout.write(`  CPU per call @proto / floor ${fmtRatio(r.callCpuVsFloor)} (both processes; lower is better)\n`);
  process.stdout.write(`  mean latency @proto / floor ${fmtRatio(r.latencyMeanVsFloor)}   @proto / SDK ${fmtRatio(r.latencyMeanVsSdk)} (lower is better)\n`);
  process.stdout.write(`  tools/list time @proto / floor ${fmtRatio(r.toolsListVsFloor)}  (target <= 2x)   SDK time / @proto time ${fmtRatio(r.toolsListSpeedupVsSdk)} (how many times faster)\n`);
  process.stdout.write(`  server RSS @proto / floor ${fmtRatio(r.rssVsFloor)}   @proto / SDK ${fmtRatio(r.rssVsSdk)}\n`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const o = {
    rounds: option("rounds", 3),
    sequential: option("sequential", 1000),
    warmup: option("warmup", 1000),
    lists: option("lists", 100),
  };
  process.stdout.write(`MCP over stdio, ${o.rounds} rounds; per side and round: ${o.sequential} sequential + pipelined calls (64 in flight) up to ${TOTAL_CALLS}, ${o.lists} tools/list (100 tools); Node ${process.version}\n`);
  const result = await runMcpStdio(o);
  print(result);
  if (flag("json")) emitJson(result);
}
