// Benchmark: a tools/call through @proto/mcp-gateway beside the same call straight to the child.
// Both sides use our client over stdio; the child is bench/lib/stdio-servers.mjs `proto` (echo +
// 10 tools). "direct" spawns the child; "gateway" spawns `proto-gateway --mcp` with that child
// behind it (one more process hop, JSON-RPC decode/encode and routing). Per round and side:
// `sequential` calls one at a time (latency), then `pipelined` calls with 64 in flight
// (throughput). Then gateway start with 5 children, one of which takes `--slow` ms to come up:
// time until tools/list is answered, and how many children's tools it held.
// Uses the BUILT packages (pnpm build):
//   node bench/gateway.mjs [--rounds 3] [--sequential 500] [--pipelined 5000] [--slow 3000] [--json]
//     [--profile DIR]   the gateway process writes a V8 CPU profile (.cpuprofile) to DIR
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { createClient } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { createGateway, createStdioSpawner } from "@proto/mcp-gateway/node";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { emitJson, flag, fmt, median, option, summarize } from "./lib/stats.mjs";

const SERVER = fileURLToPath(new URL("./lib/stdio-servers.mjs", import.meta.url));
const CLI = fileURLToPath(new URL("../packages/mcp-gateway/dist/cli.js", import.meta.url));
const child = { command: [process.execPath, SERVER, "proto", "--tools", "10"] };
const dir = mkdtempSync(join(tmpdir(), "gw-bench-"));
const config = join(dir, "gateway.json");
writeFileSync(config, JSON.stringify({ mcpServers: { bench: child } }));

const SIDES = {
  direct: { command: process.execPath, args: [SERVER, "proto", "--tools", "10"], tool: "echo" },
  gateway: { command: process.execPath, args: [...(option("profile", "") === "" ? [] : ["--cpu-prof", "--cpu-prof-dir", option("profile", "")]), CLI, "--mcp", "--config", config], tool: "bench__echo" },
};

async function measure(side, o) {
  const { command, args, tool } = SIDES[side];
  const client = createClient({ info: { name: "bench", version: "1" }, validateToolOutput: false });
  await client.connect(createStdioClientTransport({ command, args }));
  try {
    await client.listAllTools();
    for (let i = 0; i < 200; i++) await client.callTool(tool, { text: "warm" });
    const times = new Float64Array(o.sequential);
    for (let i = 0; i < o.sequential; i++) {
      const start = performance.now();
      await client.callTool(tool, { text: `hello ${i}` });
      times[i] = (performance.now() - start) * 1000;
    }
    let sent = 0;
    const start = performance.now();
    await Promise.all(Array.from({ length: 64 }, async () => {
      while (sent < o.pipelined) {
        sent++;
        await client.callTool(tool, { text: "x" });
      }
    }));
    return { latency: summarize(times), rps: o.pipelined / ((performance.now() - start) / 1000) };
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

const o = { rounds: Number(option("rounds", 3)), sequential: Number(option("sequential", 500)), pipelined: Number(option("pipelined", 5000)), slow: Number(option("slow", 3000)) };
const runs = { direct: [], gateway: [] };
for (let round = 0; round < o.rounds; round++) {
  for (const side of round % 2 === 0 ? ["direct", "gateway"] : ["gateway", "direct"]) {
    const run = await measure(side, o);
    runs[side].push(run);
    if (!flag("json")) process.stdout.write(`  round ${round + 1} ${side.padEnd(8)} seq p50 ${fmt(run.latency.p50).padStart(5)} µs  p99 ${fmt(run.latency.p99).padStart(5)} µs  64 in flight ${fmt(run.rps).padStart(6)} calls/s\n`);
  }
}
const p50 = (side) => median(runs[side].map((r) => r.latency.p50));
const rps = (side) => median(runs[side].map((r) => r.rps));
const start = await startup(o);
const results = {
  sequentialP50Us: { direct: p50("direct"), gateway: p50("gateway"), ratio: p50("gateway") / p50("direct") },
  inFlight64Rps: { direct: rps("direct"), gateway: rps("gateway"), ratio: rps("direct") / rps("gateway") },
  start,
};
if (flag("json")) emitJson(results);
else {
  process.stdout.write(`sequential p50: direct ${fmt(results.sequentialP50Us.direct)} µs, gateway ${fmt(results.sequentialP50Us.gateway)} µs (${results.sequentialP50Us.ratio.toFixed(2)}x)\n`);
  process.stdout.write(`64 in flight:   direct ${fmt(results.inFlight64Rps.direct)} calls/s, gateway ${fmt(results.inFlight64Rps.gateway)} calls/s (latency ${results.inFlight64Rps.ratio.toFixed(2)}x)\n`);
  process.stdout.write(`start, 5 children, one ${o.slow} ms slow: tools/list answered at ${fmt(start.listedMs)} ms with ${start.childrenListed} children's tools; the slow one announced by list_changed at ${fmt(start.slowAnnouncedMs)} ms\n`);
}
