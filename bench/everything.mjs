// Benchmark (issue 16), black-box on the everything example (examples/everything/dist/server.js)
// beside bare floors (node processes doing only JSON.parse / JSON.stringify over the same pipe or
// socket), in one run:
//   cold start   spawn of `server.js --stdio` to its `initialize` answer read by the parent,
//                against the floor of bench/lib/stdio-servers.mjs; median of --reps spawns
//   RSS          the server's VmRSS right after 20,000 stdio tools/call (64 in flight)
//   HTTP CPU     server CPU µs per tools/call over Streamable HTTP as the conformance suite runs
//                it (`--port`: one session, SSE answers, the in-memory event store), under
//                autocannon, against a bare node:http server answering one-event SSE streams
// `--before <dir>` adds the same figures for another build of the example (a dist/ directory),
// interleaved. Uses the BUILT packages and example:
// `--only stdio` or `--only http` runs one half.
//   node bench/everything.mjs [--reps 10] [--calls 20000] [--rounds 3] [--duration 3] [--before DIR] [--only stdio|http]
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { cpuOf, describeMachine, exited, onLines, rssOf } from "./lib/proc.mjs";
import { fmt, fmtRatio, median, medianRatio, option } from "./lib/stats.mjs";

const FLOOR = fileURLToPath(new URL("./lib/stdio-servers.mjs", import.meta.url));
const EVERYTHING = fileURLToPath(new URL("../examples/everything/dist/server.js", import.meta.url));
const REPS = option("reps", 10);
const CALLS = option("calls", 20000);
const ROUNDS = option("rounds", 3);
const DURATION = option("duration", 3);
const BEFORE = option("before", undefined);
const ONLY = option("only", undefined);
if (ONLY !== undefined && ONLY !== "stdio" && ONLY !== "http") throw new Error(`--only takes stdio or http, got ${ONLY}`);
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };
const CALL = { name: "test_simple_text", arguments: {} };

const STDIO = {
  floor: { label: "bare newline-JSON floor", args: [FLOOR, "floor", "--tools", "0"] },
  everything: { label: "everything server (this tree)", args: [EVERYTHING, "--stdio"] },
  ...(BEFORE === undefined ? {} : { before: { label: `everything server (${BEFORE})`, args: [`${BEFORE}/server.js`, "--stdio"] } }),
};

/** A newline-JSON client over a spawned stdio server. */
function open(args) {
  const start = performance.now();
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "ignore"] });
  const pending = new Map();
  let next = 1;
  onLines(child.stdout, (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  return { child, start, request, close: async () => (child.stdin.end(), child.kill(), await exited(child)) };
}

async function coldStart(side) {
  const s = open(STDIO[side].args);
  await s.request("initialize", INIT);
  const ms = performance.now() - s.start;
  await s.close();
  return ms;
}

async function rssAfterCalls(side) {
  const s = open(STDIO[side].args);
  await s.request("initialize", INIT);
  s.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  let sent = 0;
  const lane = async () => {
    while (sent < CALLS) {
      sent++;
      const answer = await s.request("tools/call", CALL);
      if (answer.error !== undefined) throw new Error(`${side}: ${JSON.stringify(answer.error)}`);
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  const rss = rssOf(s.child.pid);
  await s.close();
  return rss;
}

// ---- HTTP ------------------------------------------------------------------------------------

function sseFloor() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      if (message.id === undefined) return void res.writeHead(202).end();
      const result = message.method === "initialize" ? { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "floor", version: "1" } } : { content: [{ type: "text", text: "This is a simple text response for testing." }] };
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", "mcp-session-id": "floor" });
      res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n\n`);
    });
  });
  server.listen(0, "127.0.0.1", () => process.stderr.write(`Streamable HTTP on port ${server.address().port}\n`));
}

function startHttp(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
    let text = "";
    child.stderr.on("data", (chunk) => {
      text += chunk;
      const port = /on port (\d+)/.exec(text)?.[1];
      if (port !== undefined) child.stderr.removeAllListeners("data"), resolve({ child, url: `http://127.0.0.1:${port}/mcp` });
    });
  });
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function session(url) {
  const response = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT }) });
  await response.text();
  const headers = { ...HEADERS, "mcp-protocol-version": "2025-11-25", "mcp-session-id": response.headers.get("mcp-session-id") };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  const check = await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: CALL }) })).text();
  if (!check.includes("simple text response")) throw new Error(`${url}: ${check.slice(0, 300)}`);
  return headers;
}

async function cannon(target) {
  const { default: autocannon } = await import("autocannon");
  let next = 2;
  const before = cpuOf(target.child.pid);
  const r = await autocannon({ url: target.url, connections: 32, duration: DURATION, method: "POST", headers: target.headers, requests: [{ setupRequest: (q) => ({ ...q, body: JSON.stringify({ jsonrpc: "2.0", id: next++, method: "tools/call", params: CALL }) }) }] });
  if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${target.url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
  return { rps: r.requests.total / DURATION, cpu: (cpuOf(target.child.pid) - before) / r.requests.total };
}

// ---- run ---------------------------------------------------------------------------------------

async function interleave(names, reps, measure) {
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) await measure(n); // page in node and the files once
  for (let r = 0; r < reps; r++) for (let i = 0; i < names.length; i++) runs[names[(i + r) % names.length]].push(await measure(names[(i + r) % names.length]));
  return runs;
}

function print(title, runs, unit, digits, labels) {
  process.stdout.write(`\n${title}\n`);
  for (const [name, values] of Object.entries(runs)) {
    const ratio = name === "floor" ? "" : `   ${fmtRatio(medianRatio(values, runs.floor))} the floor`;
    process.stdout.write(`  ${labels[name].padEnd(48)} ${fmt(median(values), digits).padStart(10)} ${unit}${ratio}\n`);
  }
}

async function stdioFigures() {
  const names = Object.keys(STDIO);
  const labels = Object.fromEntries(names.map((n) => [n, STDIO[n].label]));
  print(`stdio cold start, spawn to initialize answered (median of ${REPS}; target <= 1.5x)`, await interleave(names, REPS, coldStart), "ms", 1, labels);
  const rss = await interleave(names, 1, rssAfterCalls);
  print(`server RSS after ${fmt(CALLS)} stdio tools/call (target <= 1.3x)`, Object.fromEntries(Object.entries(rss).map(([n, v]) => [n, v.map((b) => b / 2 ** 20)])), "MiB", 1, labels);
}

async function httpFigures() {
  const http = { floor: [process.argv[1], "--sse-floor"], everything: [EVERYTHING, "--port", "0"], ...(BEFORE === undefined ? {} : { before: [`${BEFORE}/server.js`, "--port", "0"] }) };
  const targets = {};
  for (const [name, args] of Object.entries(http)) {
    const started = await startHttp(args);
    targets[name] = { ...started, headers: await session(started.url) };
  }
  try {
    const runs = await interleave(Object.keys(http), ROUNDS, (n) => cannon(targets[n]));
    const cpu = Object.fromEntries(Object.entries(runs).map(([n, v]) => [n, v.map((x) => x.cpu)]));
    const rps = Object.fromEntries(Object.entries(runs).map(([n, v]) => [n, v.map((x) => x.rps)]));
    const httpLabels = { floor: "bare node:http, one-event SSE answers", everything: "everything --port (SSE answers, event store)", before: `everything --port (${BEFORE})` };
    print(`Streamable HTTP tools/call, server CPU per call, autocannon 32 connections, ${DURATION} s x ${ROUNDS} rounds (target <= 2.5x)`, cpu, "µs", 1, httpLabels);
    print("  and requests per second", rps, "req/s", 0, httpLabels);
  } finally {
    for (const t of Object.values(targets)) t.child.kill();
  }
}

if (process.argv.includes("--sse-floor")) sseFloor();
else {
  const machine = await describeMachine();
  process.stdout.write(`Node ${machine.node}, ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAverage.join(" / ")}\n`);
  if (ONLY !== "http") await stdioFigures();
  if (ONLY !== "stdio") await httpFigures();
  process.stdout.write(`load at the end ${(await describeMachine()).loadAverage.join(" / ")}\n`);
}
