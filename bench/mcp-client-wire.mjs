// Benchmark (issue 14): MCP clients over real processes, in one run. Our client
// (@proto/mcp-client, `protocol: "auto"`, which reaches the 2026-07-28 wire) against our server
// and against the official SDK v2 server (@modelcontextprotocol/server 2.4.0: `serveStdio`, and
// `createMcpHandler` behind a node:http bridge), beside the SDK v2 client
// (@modelcontextprotocol/client 2.4.0, version negotiation "auto") against the same servers;
// our client on the 2025-11-25 wire for reference. stdio and Streamable HTTP; `tools/call` of
// an `echo` tool sequential and 64 in flight. The servers are bench/lib/modern-servers.mjs; over
// stdio also a floor (canned answers, below), against which only the clients differ.
// Per run and side: calls/s, latency p50 / p99 (ms) and the CLIENT's CPU µs per call
// (process.cpuUsage of this process, which hosts only the client; the server is a child).
// Sides run in rounds, the order rotating each round; the load average is printed per round.
// Uses the BUILT packages: pnpm build, then
//   node bench/mcp-client-wire.mjs [--wire stdio,http] [--rounds 5] [--seq 1000] [--inflight 6400]
//   [--only <side>[,<side>]]   e.g. --only ours-proto-stdio --rounds 1 under `node --cpu-prof`
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { describeMachine } from "./lib/proc.mjs";
import { FLOOR } from "./lib/floor-server.mjs";
import { fmt, fmtRatio, median, medianRatio, option, summarize } from "./lib/stats.mjs";

const SERVERS = fileURLToPath(new URL("./lib/modern-servers.mjs", import.meta.url));
const ROUNDS = option("rounds", 5);
const SEQ = option("seq", 1000);
const INFLIGHT = option("inflight", 6400);
const WIRES = option("wire", "stdio,http").split(",");
const ONLY = option("only", "").split(",").filter(Boolean);
const LANES = 64;
const INFO = { name: "bench", version: "1" };
const load = () => loadavg().map((l) => l.toFixed(1)).join(" / ");

function startHttp(server) {
  const child = spawn(process.execPath, [SERVERS, server, "http"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${server} exited with ${code} before it was ready`)));
    child.once("message", (m) => resolve({ child, url: `http://127.0.0.1:${m.ready}/mcp` }));
  });
}

// A floor server for stdio (`floor`, bench/lib/floor-server.mjs): against it, what differs is the client alone.
const stdioCommand = (server) => ({ command: process.execPath, args: server === "floor" ? ["-e", FLOOR] : [SERVERS, server, "stdio"], stderr: "inherit" });

async function ours(server, wire, protocol) {
  const { createClient } = await import("@proto/mcp-client");
  const http = wire === "http" ? await startHttp(server) : undefined;
  const transport = http
    ? (await import("@proto/transport-http")).createHttpClientTransport(http.url)
    : (await import("@proto/transport-stdio/node")).createStdioClientTransport(stdioCommand(server));
  const client = createClient({ info: INFO, requestTimeoutMs: 0, protocol });
  await client.connect(transport);
  const want = protocol === "2025-11-25" ? "2025-11-25" : "2026-07-28";
  if (client.server?.protocolVersion !== want) throw new Error(`@proto client (${protocol}) -> ${server}: speaks ${client.server?.protocolVersion}, expected ${want}`);
  const call = async (text) => {
    const r = await client.callTool("echo", { text });
    if (r.content?.[0]?.text !== text) throw new Error(`@proto client -> ${server}: ${JSON.stringify(r).slice(0, 300)}`);
  };
  return { call, close: async () => (await client.close(), http?.child.kill()) };
}

async function sdk2(server, wire) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const http = wire === "http" ? await startHttp(server) : undefined;
  const transport = http
    ? new StreamableHTTPClientTransport(new URL(http.url))
    : new (await import("@modelcontextprotocol/client/stdio")).StdioClientTransport(stdioCommand(server));
  const client = new Client(INFO, { versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  if (client.getNegotiatedProtocolVersion() !== "2026-07-28") throw new Error(`SDK v2 client -> ${server}: negotiated ${client.getNegotiatedProtocolVersion()}`);
  const call = async (text) => {
    const r = await client.callTool({ name: "echo", arguments: { text } });
    if (r.content?.[0]?.text !== text) throw new Error(`SDK v2 client -> ${server}: ${JSON.stringify(r).slice(0, 300)}`);
  };
  return { call, close: async () => (await client.close(), http?.child.kill()) };
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** `count` calls over `lanes` concurrent lanes: rate, latency percentiles (ms), client CPU µs per call. */
async function drive(side, count, lanes, tag) {
  const latencies = new Float64Array(count);
  let sent = 0;
  const cpu0 = cpuNow();
  const t0 = performance.now();
  const lane = async () => {
    while (sent < count) {
      const i = sent++;
      const began = performance.now();
      await side.call(`${tag}${i}`);
      latencies[i] = performance.now() - began;
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  const rate = count / ((performance.now() - t0) / 1000);
  const { p50, p99 } = summarize(latencies);
  return { rate, p50, p99, cpu: (cpuNow() - cpu0) / count };
}

const measure = async (side) => ({ seq: await drive(side, SEQ, 1, "s"), par: await drive(side, INFLIGHT, LANES, "p") });

async function rounds(wire, sides) {
  const names = Object.keys(sides);
  const opened = {};
  for (const name of names) {
    opened[name] = await sides[name].open();
    await opened[name].call("warm");
    await drive(opened[name], Math.max(50, SEQ / 4), 1, "w"); // JIT warm-up
    await drive(opened[name], Math.max(640, INFLIGHT / 4), LANES, "w");
  }
  const runs = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const before = load();
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      runs[name].push(await measure(opened[name]));
    }
    process.stdout.write(`  ${wire}: round ${r + 1}/${ROUNDS} done (load ${before} -> ${load()})\n`);
  }
  for (const side of Object.values(opened)) await side.close();
  return runs;
}

const col = (runs, mode, field) => runs.map((r) => r[mode][field]);

function print(wire, sides, runs) {
  process.stdout.write(`\n${wire}: tools/call "echo", medians of ${ROUNDS} rounds (latency ms; CPU = client process µs per call)\n`);
  process.stdout.write(`${"client -> server".padEnd(40)} | ${"seq calls/s".padStart(11)} ${"p50".padStart(6)} ${"p99".padStart(6)} ${"CPU".padStart(6)} | ${"64 calls/s".padStart(10)} ${"p50".padStart(6)} ${"p99".padStart(6)} ${"CPU".padStart(6)}\n`);
  for (const [name, side] of Object.entries(sides)) {
    const r = runs[name];
    const cells = (mode, width) => `${fmt(median(col(r, mode, "rate"))).padStart(width)} ${fmt(median(col(r, mode, "p50")), 2).padStart(6)} ${fmt(median(col(r, mode, "p99")), 2).padStart(6)} ${fmt(median(col(r, mode, "cpu")), 0).padStart(6)}`;
    process.stdout.write(`${side.label.padEnd(40)} | ${cells("seq", 11)} | ${cells("par", 10)}\n`);
  }
  const ratio = (a, b, what) => {
    if (runs[a] === undefined || runs[b] === undefined) return;
    const rate = (mode) => fmtRatio(medianRatio(col(runs[a], mode, "rate"), col(runs[b], mode, "rate")));
    const cpu = (mode) => fmtRatio(medianRatio(col(runs[b], mode, "cpu"), col(runs[a], mode, "cpu")));
    process.stdout.write(`  ${what}: calls/s seq ${rate("seq")}, 64 in flight ${rate("par")}; client CPU per call ${cpu("seq")} / ${cpu("par")} less\n`);
  };
  ratio(`ours-proto-${wire}`, `ours2025-proto-${wire}`, "our client, modern / 2025 wire (our server)");
  ratio(`ours-proto-${wire}`, `sdk2-proto-${wire}`, "our client / SDK v2 client (our server)  ");
  ratio(`ours-sdk2-${wire}`, `sdk2-sdk2-${wire}`, "our client / SDK v2 client (SDK v2 server)");
  ratio(`ours-floor-${wire}`, `ours2025-floor-${wire}`, "our client, modern / 2025 wire (floor)     ");
  ratio(`ours-floor-${wire}`, `sdk2-floor-${wire}`, "our client / SDK v2 client (floor)         ");
}

const machine = await describeMachine();
process.stdout.write(`Node ${machine.node}, ${machine.cpu}, ${machine.cores} cores, load ${load()}; ${ROUNDS} rounds of ${SEQ} sequential + ${INFLIGHT} calls ${LANES} in flight per side\n`);
for (const wire of WIRES) {
  const all = {
    [`ours-proto-${wire}`]: { label: "@proto client (auto) -> @proto", open: () => ours("proto", wire, "auto") },
    [`ours2025-proto-${wire}`]: { label: "@proto client (2025-11-25) -> @proto", open: () => ours("proto", wire, "2025-11-25") },
    [`sdk2-proto-${wire}`]: { label: "SDK v2 client -> @proto", open: () => sdk2("proto", wire) },
    [`ours-sdk2-${wire}`]: { label: "@proto client (auto) -> SDK v2", open: () => ours("sdk2", wire, "auto") },
    [`sdk2-sdk2-${wire}`]: { label: "SDK v2 client -> SDK v2", open: () => sdk2("sdk2", wire) },
    ...(wire === "stdio" ? {
      "ours-floor-stdio": { label: "@proto client (auto) -> floor", open: () => ours("floor", wire, "auto") },
      "ours2025-floor-stdio": { label: "@proto client (2025-11-25) -> floor", open: () => ours("floor", wire, "2025-11-25") },
      "sdk2-floor-stdio": { label: "SDK v2 client -> floor", open: () => sdk2("floor", wire) },
    } : {}),
  };
  const sides = Object.fromEntries(Object.entries(all).filter(([name]) => ONLY.length === 0 || ONLY.includes(name)));
  if (Object.keys(sides).length === 0) continue;
  print(wire, sides, await rounds(wire, sides));
}
process.stdout.write(`load at the end ${load()}\n`);
