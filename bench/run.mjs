// `pnpm bench`: every side-by-side benchmark in one run: our packages, the official SDK
// (@modelcontextprotocol/sdk, pinned) and the bare floors, with medians over several rounds
// and ratios to the floor and to the SDK. Prints the table, writes bench/results/<date>-<time>-<machine>.json,
// bench/results/latest.json and bench/results/latest.md, and refreshes the table in
// bench/README.md. Uses the BUILT packages: run `pnpm build` first.
//   node bench/run.mjs [--quick] [--only stdio,http,server,cold,import,footprint] [--all] [--no-readme]
// --quick: fewer rounds (a smoke run, ~3 min); --all: also the per-package scripts (jsonrpc,
// uri-template, mcp-client, http-client, stdio Peer), whose output is kept in the results JSON.
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { arch, platform } from "node:os";
import { fileURLToPath } from "node:url";
import { runColdStart } from "./cold-start.mjs";
import { runFootprint } from "./footprint.mjs";
import { runImportTime } from "./import-time.mjs";
import { parseHttp, parseMcpServer, runScript } from "./lib/external.mjs";
import { describeMachine } from "./lib/proc.mjs";
import { buildRows, machineLine, toMarkdown, toText } from "./lib/report.mjs";
import { flag, option } from "./lib/stats.mjs";
import { runMcpStdio } from "./mcp-stdio.mjs";

const BENCH = fileURLToPath(new URL(".", import.meta.url));
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const BUILT = ["jsonrpc", "mcp-protocol", "mcp-server", "mcp-client", "transport-stdio", "transport-http"];
const quick = flag("quick");
const ALL_MEASURES = ["stdio", "http", "server", "cold", "import", "footprint"];
const only = option("only", ALL_MEASURES.join(",")).split(",");
const partial = ALL_MEASURES.some((m) => !only.includes(m));
const EXTRA = [
  ["jsonrpc", "jsonrpc.mjs", []],
  ["uri-template", "uri-template.mjs", ["--cap", "2000"]],
  ["mcp-client", "mcp-client.mjs", ["--rounds", "3"]],
  ["http-client", "http-client.mjs", ["--rounds", "3"]],
  ["stdio-peer", "stdio.mjs", ["--rounds", "3", "--requests", "20000"]],
];

function section(title) {
  process.stdout.write(`\n== ${title} (${new Date().toISOString().slice(11, 19)})\n`);
}

/** Runs one measure; its result goes to `into[key]` (default: the results), a failure to `results.failures`. */
async function step(results, key, title, fn, into = results) {
  section(title);
  const started = Date.now();
  try {
    into[key] = await fn();
  } catch (error) {
    results.failures.push(`${key}: ${error?.stack ?? error}`);
    process.stdout.write(`  FAILED: ${error?.message ?? error}\n`);
  }
  results.seconds[key] = (Date.now() - started) / 1000;
}

async function external(script, args) {
  const out = await runScript(script, args);
  if (out.code !== 0) throw new Error(`${script} exited with ${out.code ?? out.signal}: ${out.stderr.trim().split("\n").slice(-3).join(" / ")}`);
  return out;
}

async function main() {
  const missing = BUILT.filter((p) => !existsSync(`${ROOT}packages/${p}/dist/index.js`));
  if (missing.length > 0) {
    process.stderr.write(`bench: build the packages first (pnpm build); no dist for ${missing.join(", ")}\n`);
    process.exit(1);
  }
  const machine = await describeMachine();
  const started = new Date();
  const results = { date: started.toISOString(), machine, quick, partial, seconds: {}, failures: [], raw: {} };
  process.stdout.write(`@proto benchmarks, side by side with the official SDK and bare floors\n${machineLine(machine)}\n`);

  const rounds = quick ? 1 : 3;
  if (only.includes("stdio")) {
    await step(results, "stdio", "MCP over stdio: latency, 64 in flight, tools/list, RSS after 20,000 calls", () =>
      runMcpStdio({ rounds, sequential: 1000, warmup: 1000, lists: quick ? 30 : 100 }),
    );
  }
  if (only.includes("http")) {
    await step(results, "http", "Streamable HTTP tools/call under autocannon (bench/http.mjs)", async () => {
      const out = await external("http.mjs", ["--duration", quick ? "1" : "2", "--rounds", quick ? "1" : "5", "--warmup", "1", "--connections", "32"]);
      results.raw.http = out.stdout;
      const parsed = parseHttp(out.stdout);
      if (!parsed) throw new Error("could not read the figures of bench/http.mjs (format changed?); its output is in raw.http");
      return parsed;
    });
  }
  if (only.includes("server")) {
    await step(results, "serverLayer", "server layer, @proto/mcp-server vs the SDK McpServer (bench/mcp-server.mjs)", async () => {
      const out = await external("mcp-server.mjs", ["--rounds", String(rounds), "--list", quick ? "30" : "100", "--call", quick ? "1000" : "5000"]);
      results.raw.serverLayer = out.stdout;
      const parsed = parseMcpServer(out.stdout);
      if (!parsed) throw new Error("could not read the figures of bench/mcp-server.mjs; its output is in raw.serverLayer");
      return parsed;
    });
  }
  if (only.includes("cold")) await step(results, "coldStart", "cold start over stdio", () => runColdStart({ reps: quick ? 3 : 10, tools: 10 }));
  if (only.includes("import")) await step(results, "importTime", "import time", () => runImportTime({ reps: quick ? 3 : 7 }));
  if (only.includes("footprint")) await step(results, "footprint", "install footprint", () => runFootprint());
  if (flag("all")) {
    for (const [key, script, args] of EXTRA) {
      await step(results, key, `per-package: bench/${script}`, async () => (await external(script, args)).stdout, results.raw);
    }
  }

  const rows = buildRows(results);
  results.table = rows;
  const markdown = toMarkdown(rows);
  section("summary");
  process.stdout.write(`${toText(rows)}\n`);
  for (const failure of results.failures) process.stdout.write(`  FAILED ${failure.split("\n")[0]}\n`);
  await save(results, markdown);
}

async function save(results, markdown) {
  const dir = `${BENCH}results/`;
  await mkdir(dir, { recursive: true });
  const stamp = `${results.date.slice(0, 10)}-${results.date.slice(11, 13)}${results.date.slice(14, 16)}`; // UTC date and time
  const name = `${stamp}-${platform()}-${arch()}-${results.machine.cores}cpu${results.quick ? "-quick" : ""}${results.partial ? "-partial" : ""}`;
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const load = results.machine.loadAverage[0] > results.machine.cores ? ` Taken under load (load average ${results.machine.loadAverage.join(" / ")} on ${results.machine.cores} cores): absolute figures are low and noisy; ratios come from interleaved runs.` : "";
  const md = `Measured ${results.date.slice(0, 16).replace("T", " ")} UTC on ${machineLine(results.machine)} with \`pnpm bench\`${results.quick ? " --quick" : ""}.${load}\n\n${markdown}\n`;
  await writeFile(`${dir}${name}.json`, json);
  const complete = !results.quick && !results.partial && results.failures.length === 0;
  if (complete) {
    await writeFile(`${dir}latest.json`, json);
    await writeFile(`${dir}latest.md`, md);
    if (!flag("no-readme")) await refreshReadme(md);
  }
  process.stdout.write(`\nresults: bench/results/${name}.json${complete ? ", latest.json, latest.md" : " (latest.* left as they were: a quick, partial or failed run)"}\n`);
}

/** Replaces the table between the markers of bench/README.md. */
async function refreshReadme(md) {
  const path = `${BENCH}README.md`;
  const text = await readFile(path, "utf8").catch(() => undefined);
  const start = "<!-- latest:start -->";
  const end = "<!-- latest:end -->";
  if (!text?.includes(start) || !text.includes(end)) return;
  await writeFile(path, `${text.slice(0, text.indexOf(start) + start.length)}\n${md}${text.slice(text.indexOf(end))}`);
}

await main();
