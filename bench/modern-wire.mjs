// Benchmark: the 2026-07-28 (stateless) wire beside the 2025-11-25 wire, bare floors and the
// official SDK v2 (2.4.0), in one run, rounds interleaved in a rotating order.
//   --part server (issue 13): the servers of bench/lib/modern-servers.mjs driven by a bare client
//     (newline JSON over the child's pipes; autocannon over HTTP): stdio tools/call sequential
//     and 64 in flight (calls/s, CPU µs per call of both processes), stateless HTTP tools/call
//     under autocannon (req/s, server CPU µs per request). Our 2025 HTTP side is one session.
//   --part client (issue 14): real clients (ours with `protocol: "2026-07-28"`, the SDK v2 Client
//     with `versionNegotiation: { mode: "auto" }`) against our server and the SDK v2 server, over
//     stdio and HTTP: calls/s sequential and 64 in flight, client CPU µs per call.
// `--before NAME` adds our server from another build (server part: 2025 and modern wire), interleaved
// with the rest; make it from the current build first with `--snapshot NAME` (copies the dist/ of
// the five packages a server loads to packages/<pkg>/node_modules/.NAME/, where their own
// dependencies resolve, with their @proto imports made relative). `--sides a,b` keeps some sides.
// Uses the BUILT packages: pnpm build, then
//   node bench/modern-wire.mjs [--part server|client|all] [--wire stdio,http (both parts)] [--rounds 5] [--seq 10000|1000] [--inflight 128000|12800]  (server|client part) [--duration 2] [--before NAME] [--sides names]
import { spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { cpuOf, describeMachine, exited, onLines } from "./lib/proc.mjs";
import { fmt, fmtRatio, median, medianRatio, option } from "./lib/stats.mjs";

const SERVERS = fileURLToPath(new URL("./lib/modern-servers.mjs", import.meta.url));
const PART = option("part", "all");
const ROUNDS = option("rounds", 5);
// sequential calls per run: the server part measures the server's CPU over them (/proc counts 10 ms ticks)
// Calls per run, sequential and 64 in flight. The server part reads the server's CPU from /proc
// (10 ms ticks), so its runs are longer: about a second of server CPU at the 2025 wire's rate.
const given = (name) => (option(name, undefined) === undefined ? undefined : Number(option(name, undefined)));
const SERVER_SEQ = given("seq") ?? 10000;
const CLIENT_SEQ = given("seq") ?? 1000;
const SERVER_INFLIGHT = given("inflight") ?? 128000;
const CLIENT_INFLIGHT = given("inflight") ?? 12800;
const DURATION = option("duration", 2);
const WIRES = option("wire", "stdio,http").split(",");
const BEFORE = option("before", undefined);
const SNAPSHOT = option("snapshot", undefined);
const SIDES = option("sides", undefined)?.split(",");
const SERVER_PACKAGES = ["jsonrpc", "mcp-protocol", "mcp-server", "transport-http", "transport-stdio"];
/** The child's arguments: the side, the wire, and for "before" the snapshot directory. */
const childArgs = (side, wire) => [SERVERS, side, wire, ...(side === "before" ? [BEFORE] : [])];
const load1 = () => Math.round(loadavg()[0] * 10) / 10;
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
const INIT = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } };
const callParams = (text, modern) => (modern ? { name: "echo", arguments: { text }, _meta: META } : { name: "echo", arguments: { text } });

// ---- the bare client over stdio -------------------------------------------------------------
// As lean as the floor server, and the same on both wires, so the server is what is measured:
// a call's text is built from the params' JSON written once (only the echoed text is quoted
// per call), the lines of one tick leave in one write (as our transports coalesce), and an
// answer is matched by the id read at its start (every server here writes `{"jsonrpc":"2.0","id":`
// first; any other line is parsed whole) and checked by the text it echoes. The first CHECKED
// answers of each side are parsed and checked in full (the text, and `resultType` on the
// modern wire only).

const HEAD = '{"jsonrpc":"2.0","id":';
const CHECKED = 64;

/** The id at the start of `line`, when it starts as our servers write an answer; else undefined. */
function leadingId(line) {
  if (!line.startsWith(HEAD)) return undefined;
  let id = 0;
  let i = HEAD.length;
  for (let c = line.charCodeAt(i); c >= 48 && c <= 57; c = line.charCodeAt(++i)) id = id * 10 + c - 48;
  return i > HEAD.length && line.charCodeAt(i) === 44 ? id : undefined;
}

function checkAnswer(side, modern, line, quoted) {
  const answer = JSON.parse(line);
  const result = answer.result;
  if (JSON.stringify(result?.content?.[0]?.text) !== quoted || (modern ? result.resultType !== "complete" : "resultType" in result)) {
    throw new Error(`${side}: ${line.slice(0, 300)}`);
  }
}

async function rawStdio(side, modern) {
  const child = spawn(process.execPath, childArgs(side, "stdio"), { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map();
  let next = 1;
  let checked = 0;
  let out = "";
  const flush = () => {
    child.stdin.write(out);
    out = "";
  };
  const send = (line) => {
    if (out.length === 0) process.nextTick(flush);
    out += line;
  };
  onLines(child.stdout, (line) => {
    const id = leadingId(line) ?? JSON.parse(line).id;
    const settle = pending.get(id);
    pending.delete(id);
    settle?.(line);
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      send(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    });
  if (!modern) {
    await request("initialize", INIT);
    send(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  }
  const tail = modern ? `},"_meta":${JSON.stringify(META)}}}\n` : "}}}\n";
  const call = (text) =>
    new Promise((resolve, reject) => {
      const id = next++;
      const quoted = JSON.stringify(text);
      pending.set(id, (line) => {
        try {
          if (checked < CHECKED) (checked++, checkAnswer(side, modern, line, quoted));
          else if (!line.includes(`"text":${quoted}`)) throw new Error(`${side}: ${line.slice(0, 300)}`);
          resolve();
        } catch (error) {
          reject(error);
        }
      });
      send(`${HEAD}${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${quoted}${tail}`);
    });
  return { pid: child.pid, call, close: async () => (child.stdin.end(), await exited(child)) };
}

// ---- real clients ----------------------------------------------------------------------------

function startHttp(side) {
  const child = spawn(process.execPath, childArgs(side, "http"), { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${side} exited with ${code} before it was ready`)));
    child.once("message", (m) => resolve({ child, pid: child.pid, url: `http://127.0.0.1:${m.ready}/mcp` }));
  });
}

async function protoClient(server, wire, protocol) {
  const { createClient } = await import("@proto/mcp-client");
  const http = wire === "http" ? await startHttp(server) : undefined;
  let transport;
  if (http) transport = (await import("@proto/transport-http")).createHttpClientTransport(http.url);
  else transport = (await import("@proto/transport-stdio/node")).createStdioClientTransport({ command: process.execPath, args: [SERVERS, server, "stdio"], stderr: "inherit" });
  const client = createClient({ info: INIT.clientInfo, requestTimeoutMs: 0, protocol });
  await client.connect(transport);
  const call = async (text) => {
    const r = await client.callTool("echo", { text });
    if (r.content?.[0]?.text !== text) throw new Error(`proto client -> ${server}: ${JSON.stringify(r).slice(0, 300)}`);
  };
  return { pid: http?.pid ?? transport.pid, call, close: async () => (await client.close(), http?.child.kill()) };
}

async function sdk2Client(server, wire) {
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  const http = wire === "http" ? await startHttp(server) : undefined;
  let transport;
  if (http) transport = new StreamableHTTPClientTransport(new URL(http.url));
  else transport = new (await import("@modelcontextprotocol/client/stdio")).StdioClientTransport({ command: process.execPath, args: [SERVERS, server, "stdio"], stderr: "inherit" });
  const client = new Client(INIT.clientInfo, { versionNegotiation: { mode: "auto" } });
  await client.connect(transport);
  if (client.getNegotiatedProtocolVersion() !== "2026-07-28") throw new Error(`SDK v2 client -> ${server}: negotiated ${client.getNegotiatedProtocolVersion()}`);
  const call = async (text) => {
    const r = await client.callTool({ name: "echo", arguments: { text } });
    if (r.content?.[0]?.text !== text) throw new Error(`SDK v2 client -> ${server}: ${JSON.stringify(r).slice(0, 300)}`);
  };
  return { pid: http?.pid ?? transport.pid, call, close: async () => (await client.close(), http?.child.kill()) };
}

// ---- measuring ------------------------------------------------------------------------------

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** `count` sequential calls, then `total` calls with 64 outstanding: rates and CPU per call (own process, and the server's). */
async function drive(side, count, total) {
  const seqPeer0 = cpuOf(side.pid);
  let t = performance.now();
  for (let i = 0; i < count; i++) await side.call(`s${i}`);
  const seq = count / ((performance.now() - t) / 1000);
  const seqPeer = (cpuOf(side.pid) - seqPeer0) / count;
  const own0 = cpuNow();
  const peer0 = cpuOf(side.pid);
  t = performance.now();
  let sent = 0;
  const lane = async () => {
    while (sent < total) await side.call(`p${sent++}`);
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  const inflight = total / ((performance.now() - t) / 1000);
  const own = (cpuNow() - own0) / total;
  const peer = (cpuOf(side.pid) - peer0) / total;
  return { seq, seqPeer, inflight, own, peer, cpu: own + peer, load: load1() };
}

async function rounds(label, all, measure) {
  const sides = SIDES === undefined ? all : Object.fromEntries(Object.entries(all).filter(([name]) => SIDES.includes(name) || name === "proto-2025" || name.startsWith("floor")));
  const opened = {};
  for (const [name, side] of Object.entries(sides)) {
    opened[name] = await side.open();
    await measure(opened[name], true);
  }
  const runs = Object.fromEntries(Object.keys(sides).map((n) => [n, []]));
  const names = Object.keys(sides);
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + r) % names.length];
      runs[name].push(await measure(opened[name], false));
    }
    process.stdout.write(`  ${label}: round ${r + 1}/${ROUNDS} done, load ${load1()}\n`);
  }
  for (const side of Object.values(opened)) await side.close();
  for (const name of Object.keys(all)) if (!(name in sides)) delete all[name];
  return runs;
}

const pick = (runs, field) => runs.map((r) => r[field]);

function printStdio(title, sides, runs, base, peerLabel = "server") {
  process.stdout.write(`\n${title}\n${"side".padEnd(44)}   seq calls/s   seq ${peerLabel} µs/call   64 in flight calls/s   CPU µs/call   ${peerLabel} µs/call   seq / ${base}   64 / ${base}\n`);
  for (const [name, side] of Object.entries(sides)) {
    const r = runs[name];
    process.stdout.write(
      `${side.label.padEnd(44)} ${fmt(median(pick(r, "seq"))).padStart(13)} ${fmt(median(pick(r, "seqPeer")), 1).padStart(peerLabel.length + 12)} ${fmt(median(pick(r, "inflight"))).padStart(22)} ${fmt(median(pick(r, "cpu")), 1).padStart(13)} ${fmt(median(pick(r, "peer")), 1).padStart(peerLabel.length + 8)}` +
        ` ${fmtRatio(medianRatio(pick(r, "seq"), pick(runs[base], "seq"))).padStart(10)} ${fmtRatio(medianRatio(pick(r, "inflight"), pick(runs[base], "inflight"))).padStart(9)}\n`,
    );
  }
}

// ---- HTTP under autocannon (server part) ------------------------------------------------------

const HTTP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const MODERN_HEADERS = { ...HTTP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "echo" };

async function openSession(url) {
  const response = await fetch(url, { method: "POST", headers: HTTP_HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: INIT }) });
  await response.text();
  const headers = { ...HTTP_HEADERS, "mcp-protocol-version": "2025-11-25", "mcp-session-id": response.headers.get("mcp-session-id") };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return headers;
}

async function cannon(target) {
  const { default: autocannon } = await import("autocannon");
  let next = 1;
  const body = (id) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: callParams("hello, http", target.modern) });
  const ask = (m) => new Promise((resolve) => (target.child.once("message", (x) => resolve(x.cpu.user + x.cpu.system)), target.child.send(m)));
  const before = await ask("cpu");
  const result = await autocannon({ url: target.url, connections: 32, duration: DURATION, method: "POST", headers: target.headers, requests: [{ setupRequest: (r) => ({ ...r, body: body(next++) }) }] });
  const cpu = (await ask("cpu")) - before;
  const total = result.requests.total;
  if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${target.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: total / DURATION, cpu: cpu / total, load: load1() };
}

async function openHttpTarget(side, modern) {
  const started = await startHttp(side);
  const headers = modern ? MODERN_HEADERS : side === "floor" ? HTTP_HEADERS : await openSession(started.url);
  const check = await fetch(started.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: callParams("hello, http", modern) }) });
  const text = await check.text();
  if (!text.includes("hello, http")) throw new Error(`${side}: ${check.status} ${text.slice(0, 300)}`);
  return { ...started, headers, modern, close: async () => started.child.kill() };
}

// ---- the parts ---------------------------------------------------------------------------------

async function serverPart() {
  const stdio = {
    floor: { label: "bare floor (2026-07-28 messages)", open: () => rawStdio("floor", true) },
    "floor-2025": { label: "bare floor (2025-11-25 messages)", open: () => rawStdio("floor", false) },
    "proto-2025": { label: "@proto server, 2025-11-25 wire", open: () => rawStdio("proto", false) },
    "proto-modern": { label: "@proto server, 2026-07-28 wire", open: () => rawStdio("proto", true) },
    ...(BEFORE === undefined
      ? {}
      : {
          "before-2025": { label: "@proto before, 2025-11-25 wire", open: () => rawStdio("before", false) },
          "before-modern": { label: "@proto before, 2026-07-28 wire", open: () => rawStdio("before", true) },
        }),
    sdk2: { label: "SDK v2 server (serveStdio), 2026-07-28 wire", open: () => rawStdio("sdk2", true) },
  };
  if (WIRES.includes("stdio")) {
    const stdioRuns = await rounds("stdio", stdio, (side, warm) => (warm ? side.call("warm").then(() => drive(side, SERVER_SEQ, SERVER_INFLIGHT)) : drive(side, SERVER_SEQ, SERVER_INFLIGHT)));
    printStdio("stdio tools/call, bare client (CPU: client + server process)", stdio, stdioRuns, "proto-2025");
  }
  if (!WIRES.includes("http")) return;
  const http = {
    floor: { label: "bare node:http floor", open: () => openHttpTarget("floor", true) },
    "proto-2025": { label: "@proto server, 2025-11-25 wire (one session)", open: () => openHttpTarget("proto", false) },
    "proto-modern": { label: "@proto server, 2026-07-28 wire (stateless)", open: () => openHttpTarget("proto", true) },
    ...(BEFORE === undefined
      ? {}
      : {
          "before-2025": { label: "@proto before, 2025-11-25 wire (one session)", open: () => openHttpTarget("before", false) },
          "before-modern": { label: "@proto before, 2026-07-28 wire (stateless)", open: () => openHttpTarget("before", true) },
        }),
    sdk2: { label: "SDK v2 createMcpHandler, 2026-07-28 wire", open: () => openHttpTarget("sdk2", true) },
  };
  const httpRuns = await rounds("http", http, (target) => cannon(target));
  process.stdout.write(`\nStreamable HTTP tools/call, autocannon 32 connections, ${DURATION} s per run\n${"side".padEnd(48)}   req/s   server CPU µs/req   / floor   / proto 2025   / SDK v2\n`);
  for (const [name, side] of Object.entries(http)) {
    const r = httpRuns[name];
    const ratio = (other) => (httpRuns[other] === undefined ? "-" : fmtRatio(medianRatio(pick(r, "rps"), pick(httpRuns[other], "rps"))));
    process.stdout.write(`${side.label.padEnd(48)} ${fmt(median(pick(r, "rps"))).padStart(7)} ${fmt(median(pick(r, "cpu")), 1).padStart(19)} ${ratio("floor").padStart(9)} ${ratio("proto-2025").padStart(14)} ${ratio("sdk2").padStart(9)}\n`);
  }
  process.stdout.write("targets (issue 13): modern >= 0.9x our 2025 wire; stateless HTTP >= 0.5x floor and >= 3x SDK v2\n");
}

async function clientPart() {
  const sides = {};
  for (const wire of ["stdio", "http"]) {
    sides[`proto-2025-${wire}`] = { label: `@proto client 2025 -> @proto server (${wire})`, open: () => protoClient("proto", wire, "2025-11-25") };
    sides[`proto-proto-${wire}`] = { label: `@proto client -> @proto server (${wire})`, open: () => protoClient("proto", wire, "2026-07-28") };
    sides[`proto-sdk2-${wire}`] = { label: `@proto client -> SDK v2 server (${wire})`, open: () => protoClient("sdk2", wire, "2026-07-28") };
    sides[`sdk2-proto-${wire}`] = { label: `SDK v2 client -> @proto server (${wire})`, open: () => sdk2Client("proto", wire) };
    sides[`sdk2-sdk2-${wire}`] = { label: `SDK v2 client -> SDK v2 server (${wire})`, open: () => sdk2Client("sdk2", wire) };
  }
  for (const wire of WIRES) {
    const some = Object.fromEntries(Object.entries(sides).filter(([name]) => name.endsWith(wire)));
    const runs = await rounds(`clients ${wire}`, some, (side, warm) => (warm ? side.call("warm").then(() => drive(side, CLIENT_SEQ, CLIENT_INFLIGHT)) : drive(side, CLIENT_SEQ, CLIENT_INFLIGHT)));
    printStdio(`clients on the 2026-07-28 wire over ${wire} (CPU: client process + server process)`, some, runs, `sdk2-sdk2-${wire}`, "server");
    const line = (a, b, what) => process.stdout.write(`  ${what}: seq ${fmtRatio(medianRatio(pick(runs[a], "seq"), pick(runs[b], "seq")))}, 64 in flight ${fmtRatio(medianRatio(pick(runs[a], "inflight"), pick(runs[b], "inflight")))}, client CPU/call ${fmtRatio(medianRatio(pick(runs[b], "own"), pick(runs[a], "own")))} less\n`);
    line(`proto-proto-${wire}`, `sdk2-proto-${wire}`, "our client / SDK v2 client, both against @proto server");
    line(`proto-sdk2-${wire}`, `sdk2-sdk2-${wire}`, "our client / SDK v2 client, both against SDK v2 server");
  }
}

/** Copies the dist/ of the packages a server loads to packages/<pkg>/node_modules/.<name>/, each @proto import made a relative path into the copies. */
function snapshot(name) {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error("--snapshot NAME: lower-case letters, digits and dashes");
  for (const pkg of SERVER_PACKAGES) {
    const from = fileURLToPath(new URL(`../packages/${pkg}/dist/`, import.meta.url));
    const to = fileURLToPath(new URL(`../packages/${pkg}/node_modules/.${name}/`, import.meta.url));
    mkdirSync(to, { recursive: true });
    for (const file of readdirSync(from).filter((f) => f.endsWith(".js"))) {
      const text = readFileSync(`${from}${file}`, "utf8").replace(/from "@proto\/([a-z-]+)(\/[a-z]+)?"/g, (_, dep, sub) => `from "../../../${dep}/node_modules/.${name}/${sub === undefined ? "index" : sub.slice(1)}.js"`);
      writeFileSync(`${to}${file}`, text);
    }
  }
  process.stdout.write(`snapshot of ${SERVER_PACKAGES.join(", ")} as packages/<pkg>/node_modules/.${name}/\n`);
}

if (SNAPSHOT !== undefined) {
  snapshot(SNAPSHOT);
  process.exit(0);
}
const machine = await describeMachine();
process.stdout.write(`Node ${machine.node}, ${machine.cpu}, ${machine.cores} cores, load ${machine.loadAverage.join(" / ")}; ${ROUNDS} rounds, per run ${SERVER_SEQ} sequential + ${SERVER_INFLIGHT} calls 64 in flight (server part), ${CLIENT_SEQ} + ${CLIENT_INFLIGHT} (client part)\n`);
if (PART === "server" || PART === "all") await serverPart();
if (PART === "client" || PART === "all") await clientPart();
process.stdout.write(`load at the end ${(await describeMachine()).loadAverage.join(" / ")}\n`);
