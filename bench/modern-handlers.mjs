// Benchmark, in one process: CPU per 2026-07-28 `tools/call` of @proto/mcp-server's request path
// for four handlers, `sync` (returns the text), `async` (an async function returning it), `io`
// (an async function that waits one `setImmediate` first, as a tool waiting on I/O: its call stays
// pending across a turn of the event loop) and `intercepted` (the async one through an extension's
// pass-through `tools/call` interceptor, as the gateway's), with 64 calls in flight over a memory transport passing objects (no codec).
// The client is a bare sink (ids matched in a Map), so the CPU measured is the server's path plus
// a constant. `--before DIR` adds the same sides from another checkout's build (DIR/packages/
// mcp-server/dist/index.js, e.g. a copy of main after `pnpm build`); sides run interleaved in a
// rotating order, each warmed first. CPU µs per call is process CPU (user + system) over the
// calls; the 1-minute load average is printed with every round.
// Uses the BUILT packages (pnpm build):
//   node bench/modern-handlers.mjs [--rounds 5] [--calls 50000] [--warmup 20000] [--before DIR] [--json]
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { emitJson, flag, fmt, median, option } from "./lib/stats.mjs";

const o = { rounds: Number(option("rounds", 5)), calls: Number(option("calls", 50000)), warmup: Number(option("warmup", 20000)) };
const BEFORE = option("before", "");
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
const SCHEMA = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
const HANDLERS = ["sync", "async", "io", "intercepted"];

async function makeServer(build, handler) {
  const { createServer } = build === "after" ? await import("@proto/mcp-server") : await import(pathToFileURL(join(resolve(BEFORE), "packages/mcp-server/dist/index.js")).href);
  const server = createServer({ name: "bench", version: "1" });
  if (handler === "sync") server.tool({ name: "echo", inputSchema: SCHEMA }, ({ text }) => text);
  else if (handler === "io") {
    server.tool({ name: "echo", inputSchema: SCHEMA }, async ({ text }) => {
      await new Promise((resolve) => setImmediate(resolve));
      return text;
    });
  } else server.tool({ name: "echo", inputSchema: SCHEMA }, async ({ text }) => text);
  if (handler === "intercepted") server.use({ id: "com.example/pass", intercept: { "tools/call": (params, _ctx, next) => next(params) } });
  const [clientSide, serverSide] = createMemoryTransportPair({ wire: false });
  await server.connect(serverSide);
  const waiting = new Map();
  await clientSide.start({
    payload(message) {
      const done = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error !== undefined || message.result?.content?.[0]?.text !== "x") done.reject(new Error(`unexpected answer ${JSON.stringify(message)}`));
      else done.resolve();
    },
    error() {},
    closed() {},
  });
  let id = 0;
  const call = () =>
    new Promise((resolve, reject) => {
      const n = ++id;
      waiting.set(n, { resolve, reject });
      void clientSide.send({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name: "echo", arguments: { text: "x" }, _meta: META } });
    });
  return { call };
}

// `count` calls, 64 in flight; CPU µs per call of this process.
async function run(side, count) {
  let sent = 0;
  const before = process.cpuUsage();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (sent < count) {
        sent++;
        await side.call();
      }
    }),
  );
  const used = process.cpuUsage(before);
  return (used.user + used.system) / count;
}

const builds = BEFORE === "" ? ["after"] : ["after", "before"];
const names = builds.flatMap((b) => HANDLERS.map((h) => `${h} ${b}`));
const sides = {};
for (const name of names) {
  const [handler, build] = name.split(" ");
  sides[name] = await makeServer(build, handler);
  await run(sides[name], o.warmup);
}
const runs = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < o.rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  const line = [];
  for (const name of round % 2 === 0 ? order : order.reverse()) {
    const us = await run(sides[name], o.calls);
    runs[name].push(us);
    line.push(`${name} ${fmt(us, 2)}`);
  }
  if (!flag("json")) process.stdout.write(`round ${round + 1} load ${loadavg()[0].toFixed(1)}: ${line.join(", ")} µs/call\n`);
}
const results = { cpuUsPerCall: Object.fromEntries(names.map((n) => [n, { median: median(runs[n]), rounds: runs[n] }])), loadAverage: loadavg()[0] };
if (flag("json")) emitJson(results);
else {
  process.stdout.write(`medians over ${o.rounds} rounds of ${o.calls} calls, 64 in flight (CPU µs per call, this process):\n`);
  for (const handler of HANDLERS) {
    const after = results.cpuUsPerCall[`${handler} after`].median;
    const before = results.cpuUsPerCall[`${handler} before`]?.median;
    process.stdout.write(`  ${handler.padEnd(12)} after ${fmt(after, 2)}${before === undefined ? "" : `  before ${fmt(before, 2)}  (${fmt(after - before, 2)})`}\n`);
  }
}
process.exit(0);
