// Benchmark: cold start of a stdio MCP server, from spawn to the `initialize` answer read by
// the parent, for the bare floor (node + a newline-JSON answer), our server (@proto/mcp-server +
// serveStdio) and the official SDK's McpServer + StdioServerTransport, each with `--tools` tools
// (default 10) plus `echo`. The initialize request is written right after spawn (the server reads
// it once it is up). Sides alternate; medians over `--reps` spawns (default 10). BUILT packages.
//   node bench/cold-start.mjs [--reps 10] [--tools 10] [--json]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { exited, onLines } from "./lib/proc.mjs";
import { emitJson, flag, fmt, fmtRatio, median, medianRatio, option } from "./lib/stats.mjs";

const SERVERS = fileURLToPath(new URL("./lib/stdio-servers.mjs", import.meta.url));
const SIDES = { floor: "bare newline-JSON floor", proto: "@proto mcp-server + serveStdio", sdk: "official SDK McpServer + stdio" };
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "cold", version: "1" } } };

/** Spawns `side` and resolves with the milliseconds until its initialize answer arrived. */
async function once(side, tools) {
  const start = performance.now();
  const child = spawn(process.execPath, [SERVERS, side, "--tools", String(tools)], { stdio: ["pipe", "pipe", "inherit"] });
  const answered = new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${side} exited (${code}) before answering initialize`)));
    onLines(child.stdout, (line) => {
      if (JSON.parse(line).id === 1) resolve(performance.now() - start);
    });
  });
  child.stdin.write(`${JSON.stringify(INIT)}\n`);
  const ms = await answered;
  child.removeAllListeners("exit");
  child.stdin.end();
  child.kill();
  await exited(child);
  return ms;
}

export async function runColdStart({ reps, tools }) {
  const runs = Object.fromEntries(Object.keys(SIDES).map((s) => [s, []]));
  for (const side of Object.keys(SIDES)) await once(side, tools); // page in node and the files once
  for (let rep = 0; rep < reps; rep++) {
    const sides = Object.keys(SIDES);
    for (const side of [...sides.slice(rep % sides.length), ...sides.slice(0, rep % sides.length)]) runs[side].push(await once(side, tools));
  }
  const summary = Object.fromEntries(Object.entries(runs).map(([side, ms]) => [side, { label: SIDES[side], medianMs: median(ms), minMs: Math.min(...ms) }]));
  return {
    options: { reps, tools },
    runs,
    summary,
    ratios: { vsFloor: medianRatio(runs.proto, runs.floor), sdkOverProto: medianRatio(runs.sdk, runs.proto) },
  };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const o = { reps: option("reps", 10), tools: option("tools", 10) };
  process.stdout.write(`cold start over stdio: spawn to initialize answered, ${o.reps} spawns per side, ${o.tools} tools + echo, Node ${process.version}\n`);
  const result = await runColdStart(o);
  for (const s of Object.values(result.summary)) process.stdout.write(`  ${s.label.padEnd(34)} median ${fmt(s.medianMs, 1).padStart(7)} ms   best ${fmt(s.minMs, 1).padStart(7)} ms\n`);
  process.stdout.write(`  @proto / floor ${fmtRatio(result.ratios.vsFloor)} (target <= 1.3x)   SDK / @proto ${fmtRatio(result.ratios.sdkOverProto)} (how many times slower the SDK starts)\n`);
  if (flag("json")) emitJson(result);
}
