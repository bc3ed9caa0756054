// Benchmark: import time in a fresh node process (module loading and evaluation, measured inside
// the child around the dynamic imports), and the whole process from spawn to exit, for what a
// stdio server and a client import: ours, the official SDK's, and a floor (node:readline only).
// Sides alternate; medians over `--reps` processes (default 10). Uses the BUILT packages.
//   node bench/import-time.mjs [--reps 10] [--json]
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { emitJson, flag, fmt, fmtRatio, median, medianRatio, option } from "./lib/stats.mjs";

const BENCH = fileURLToPath(new URL(".", import.meta.url));
const SIDES = {
  floor: { label: "floor (node:readline)", modules: ["node:readline"] },
  "proto-server": { label: "@proto/mcp-server + transport-stdio/node", modules: ["@proto/mcp-server", "@proto/transport-stdio/node"] },
  "sdk-server": { label: "SDK server/mcp.js + server/stdio.js", modules: ["@modelcontextprotocol/sdk/server/mcp.js", "@modelcontextprotocol/sdk/server/stdio.js"] },
  "proto-client": { label: "@proto/mcp-client + transport-stdio/node", modules: ["@proto/mcp-client", "@proto/transport-stdio/node"] },
  "sdk-client": { label: "SDK client/index.js + client/stdio.js", modules: ["@modelcontextprotocol/sdk/client/index.js", "@modelcontextprotocol/sdk/client/stdio.js"] },
};

function once(side) {
  const code = `const t = performance.now(); for (const m of ${JSON.stringify(SIDES[side].modules)}) await import(m); process.stdout.write(String(performance.now() - t));`;
  const start = performance.now();
  // cwd bench/: the specifiers resolve through bench/node_modules, as in a project that depends on them.
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], { cwd: BENCH, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.once("exit", (status) => (status === 0 ? resolve({ importMs: Number(out), processMs: performance.now() - start }) : reject(new Error(`${side} failed to import (${status})`))));
  });
}

export async function runImportTime({ reps }) {
  const sides = Object.keys(SIDES);
  const runs = Object.fromEntries(sides.map((s) => [s, []]));
  for (const side of sides) await once(side); // page the files in once
  for (let rep = 0; rep < reps; rep++) for (const side of [...sides.slice(rep % sides.length), ...sides.slice(0, rep % sides.length)]) runs[side].push(await once(side));
  const summary = Object.fromEntries(
    sides.map((s) => [s, { label: SIDES[s].label, importMs: median(runs[s].map((r) => r.importMs)), processMs: median(runs[s].map((r) => r.processMs)) }]),
  );
  const ratio = (a, b) => medianRatio(runs[a].map((r) => r.importMs), runs[b].map((r) => r.importMs));
  return { options: { reps }, runs, summary, ratios: { serverSdkOverProto: ratio("sdk-server", "proto-server"), clientSdkOverProto: ratio("sdk-client", "proto-client") } };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const reps = option("reps", 10);
  process.stdout.write(`import time in a fresh process, ${reps} processes per side, Node ${process.version}\n`);
  const result = await runImportTime({ reps });
  for (const s of Object.values(result.summary)) process.stdout.write(`  ${s.label.padEnd(44)} import ${fmt(s.importMs, 1).padStart(7)} ms   spawn to exit ${fmt(s.processMs, 1).padStart(7)} ms\n`);
  process.stdout.write(`  SDK / @proto import time: server ${fmtRatio(result.ratios.serverSdkOverProto)}, client ${fmtRatio(result.ratios.clientSdkOverProto)}\n`);
  if (flag("json")) emitJson(result);
}
