// Benchmark: a Peer over @proto/transport-stdio against a bare newline-JSON echo, both between
// two node processes, in the same run. Prints sequential latency and 64-in-flight throughput,
// and the ratios. Uses the BUILT packages: build them first:
//   (cd packages/jsonrpc && npx tsup) && (cd packages/transport-stdio && npx tsup)
//   node bench/stdio.mjs [--requests 50000] [--sequential 3000] [--rounds 3]
// The same file is the child process: `--serve proto` or `--serve bare`.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";

const self = fileURLToPath(import.meta.url);
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : argv[at + 1];
};

async function load() {
  try {
    const jsonrpc = await import("@proto/jsonrpc");
    const stdio = await import("@proto/transport-stdio/node");
    return { ...jsonrpc, ...stdio };
  } catch (error) {
    process.stderr.write(`Build the packages first (see the top of bench/stdio.mjs): ${error.message}\n`);
    process.exit(1);
  }
}

// ---- child side -------------------------------------------------------------------------

async function serveProto() {
  const { createPeer, createStdioServerTransport } = await load();
  const peer = createPeer(createStdioServerTransport(), { requestTimeoutMs: 0 });
  peer.handle("echo", (params) => params);
  await peer.start();
}

// The floor: split lines, JSON.parse, answer with JSON.stringify. No validation, no limits.
function serveBare() {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) {
      if (line.length === 0) continue;
      const message = JSON.parse(line);
      out += JSON.stringify({ jsonrpc: "2.0", id: message.id, result: message.params }) + "\n";
    }
    if (out.length > 0) process.stdout.write(out);
  });
}

// ---- parent side ------------------------------------------------------------------------

async function protoClient() {
  const { createPeer, createStdioClientTransport } = await load();
  const transport = createStdioClientTransport({ command: process.execPath, args: [self, "--serve", "proto"], stderr: "inherit" });
  const peer = createPeer(transport, { requestTimeoutMs: 0 });
  await peer.start();
  return { pid: transport.pid, call: (params) => peer.request("echo", params), close: () => peer.close() };
}

// The floor's client: one write per request, or (`coalesce`) one write per tick, as ours does.
function bareClient(coalesce) {
  const child = spawn(process.execPath, [self, "--serve", "bare"], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let next = 1;
  let rest = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) {
      const message = JSON.parse(line);
      const resolve = pending.get(message.id);
      pending.delete(message.id);
      resolve(message.result);
    }
  });
  let out = "";
  const flush = () => {
    child.stdin.write(out);
    out = "";
  };
  return {
    pid: child.pid,
    call(params) {
      const id = next++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        const line = JSON.stringify({ jsonrpc: "2.0", id, method: "echo", params }) + "\n";
        if (!coalesce) child.stdin.write(line);
        else if ((out += line).length === line.length) process.nextTick(flush);
      });
    },
    close: () => new Promise((resolve) => (child.once("exit", resolve), child.stdin.end())),
  };
}

const params = (i) => ({ text: "hello, stdio", n: i, tags: ["a", "b"] });

async function sequential(client, count) {
  const times = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await client.call(params(i));
    times[i] = performance.now() - start;
  }
  times.sort();
  const mean = times.reduce((a, b) => a + b, 0) / count;
  return { mean: mean * 1000, p50: times[Math.floor(count * 0.5)] * 1000, p99: times[Math.floor(count * 0.99)] * 1000 };
}

// CPU time of a child in µs, from /proc (Linux); undefined elsewhere.
function childCpu(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime, in USER_HZ (100/s)
  } catch {
    return undefined;
  }
}

async function pipelined(client, total, window) {
  let sent = 0;
  const cpu = process.cpuUsage();
  const childBefore = childCpu(client.pid);
  const start = performance.now();
  const lane = async () => {
    while (sent < total) await client.call(params(sent++));
  };
  await Promise.all(Array.from({ length: window }, lane));
  const seconds = (performance.now() - start) / 1000;
  const own = process.cpuUsage(cpu);
  const childAfter = childCpu(client.pid);
  const childUs = childBefore === undefined || childAfter === undefined ? Number.NaN : childAfter - childBefore;
  // CPU µs per request over both processes: unlike req/s, it does not depend on how busy the machine is.
  return { rps: total / seconds, cpuPerRequest: (own.user + own.system + childUs) / total };
}

async function measure(make, requests, sequentialCount) {
  const client = await make();
  await pipelined(client, 5_000, 64); // warm-up: JIT both processes
  const latency = await sequential(client, sequentialCount);
  const { rps, cpuPerRequest } = await pipelined(client, requests, 64);
  await client.close();
  return { latency, throughput: rps, cpuPerRequest };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const requests = Number(option("requests", 50_000));
  const sequentialCount = Number(option("sequential", 3_000));
  const rounds = Number(option("rounds", 3));
  const clients = { bare: () => bareClient(false), coalesced: () => bareClient(true), proto: protoClient };
  const results = { bare: [], coalesced: [], proto: [] };
  for (let round = 0; round < rounds; round++) {
    // Rotate the order so no side always runs on a warmer (or busier) machine.
    const names = Object.keys(clients);
    const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
    for (const name of order) results[name].push(await measure(clients[name], requests, sequentialCount));
  }
  const summary = (name) => ({
    mean: median(results[name].map((r) => r.latency.mean)),
    p50: median(results[name].map((r) => r.latency.p50)),
    p99: median(results[name].map((r) => r.latency.p99)),
    rps: median(results[name].map((r) => r.throughput)),
    best: Math.max(...results[name].map((r) => r.throughput)),
    cpu: median(results[name].map((r) => r.cpuPerRequest)),
  });
  const proto = summary("proto");
  const bare = summary("bare");
  const coalesced = summary("coalesced");
  process.stdout.write(`stdio: Peer over @proto/transport-stdio vs bare newline-JSON echo (node ${process.version}, ${rounds} rounds, ${requests} pipelined + ${sequentialCount} sequential requests each)\n`);
  process.stdout.write(`                         sequential latency (µs)   64 in flight: req/s   CPU µs/req (both processes)\n`);
  process.stdout.write(`                         mean     p50     p99      median     best\n`);
  for (const [name, s] of [["bare echo", bare], ["bare echo, coalesced", coalesced], ["@proto Peer + stdio", proto]]) {
    const row = [fmt(s.mean).padStart(6), fmt(s.p50).padStart(7), fmt(s.p99).padStart(7), fmt(s.rps).padStart(11), fmt(s.best).padStart(8), fmt(s.cpu, 1).padStart(10)];
    process.stdout.write(`  ${name.padEnd(22)} ${row.join(" ")}\n`);
  }
  for (const [name, floor] of [["bare echo", bare], ["coalesced echo", coalesced]]) {
    process.stdout.write(
      `  @proto / ${name.padEnd(15)} latency (mean) ${fmt(proto.mean / floor.mean, 2)}x · throughput median ${fmt(proto.rps / floor.rps, 2)}x, best ${fmt(proto.best / floor.best, 2)}x · CPU per request ${fmt(proto.cpu / floor.cpu, 2)}x\n`,
    );
  }
  process.stdout.write(`  target: throughput >= 0.70x the bare echo's\n`);
}

const serve = option("serve", undefined);
if (serve === "proto") await serveProto();
else if (serve === "bare") serveBare();
else await main();
