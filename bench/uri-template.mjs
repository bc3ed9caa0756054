// Benchmark: RFC 6570 URI template matching and expansion, @proto/mcp-server against the
// official SDK's UriTemplate, in the same run. Prints figures (no assertions):
//  1. adversarial ~100 KB URIs against realistic templates: our linear matcher, and the SDK's
//     regex matcher run in a worker thread that is stopped after --cap ms;
//  2. everyday throughput: matching and expanding a typical template.
// Uses the BUILT package: build it first:
//   (cd packages/mcp-server && npx tsup) && node bench/uri-template.mjs [--cap 5000] [--size 100000]
import { Worker } from "node:worker_threads";
import { performance } from "node:perf_hooks";

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(argv[at + 1]);
};
const CAP_MS = option("cap", 5000);
const SIZE = option("size", 100_000);

let ours;
try {
  ours = await import("@proto/mcp-server");
} catch (error) {
  process.stderr.write(`Build @proto/mcp-server first (see the top of bench/uri-template.mjs): ${error.message}\n`);
  process.exit(1);
}
const { UriTemplate } = await import("@modelcontextprotocol/sdk/shared/uriTemplate.js");

// Flat strings, as JSON.parse hands them to a server (a concatenation would be a rope).
const fill = (unit, tail = "") => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE) + tail;
const flat = (text) => JSON.parse(JSON.stringify(text));

// Templates a server could plausibly register, each with a URI built to make a backtracking
// regex work hard (most end with a character that forces a failure after a long scan).
const adversarial = [
  { name: "name + label (files/{name}{.ext})", template: "files/{name}{.ext}", uri: "files/" + fill(".", "/") },
  { name: "name + label, alternating chars", template: "files/{name}{.ext}", uri: "files/" + fill(".a", "/") },
  { name: "path + query (file:///{+path}{?q})", template: "file:///{+path}{?q}", uri: "file:///" + fill("?q=", "&") },
  { name: "two reserved ({+section}/{+page})", template: "docs://{+section}/{+page}", uri: "docs://" + fill("/", "\n") },
  { name: "exploded path, CVE-2026-0621 shape ({/id*})", template: "items{/id*}", uri: "items/" + fill("a,", "/") },
  { name: "three simple ({a}{b}{c})", template: "x/{a}{b}{c}", uri: "x/" + fill("a", "/") },
  { name: "long valid id (users/{id}/posts)", template: "users/{id}/posts", uri: "users/" + fill("7") + "/posts" },
];

function cpuMs(fn) {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const result = fn();
  const used = process.cpuUsage(cpu);
  return { result, wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function oursAdversarial(template, uri) {
  const t = ours.createUriTemplate(template);
  uri = flat(uri);
  for (let i = 0; i < 5; i++) t.match(uri); // warm-up
  const runs = Array.from({ length: 15 }, () => cpuMs(() => t.match(uri)));
  return { wall: median(runs.map((r) => r.wall)), cpu: median(runs.map((r) => r.cpu)), matched: runs[0].result !== undefined };
}

const sdkWorker = `
const { parentPort, workerData } = require("node:worker_threads");
import(workerData.module).then(({ UriTemplate }) => {
  const t = new UriTemplate(workerData.template);
  const start = performance.now();
  let matched;
  try { matched = t.match(workerData.uri) !== null; } catch (e) { matched = "threw: " + e.message; }
  parentPort.postMessage({ wall: performance.now() - start, matched });
});`;

function sdkAdversarial(template, uri) {
  const module = import.meta.resolve("@modelcontextprotocol/sdk/shared/uriTemplate.js");
  uri = flat(uri);
  return new Promise((resolve) => {
    const worker = new Worker(sdkWorker, { eval: true, workerData: { module, template, uri } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ wall: Infinity, matched: "stopped" });
    }, CAP_MS);
    worker.once("message", (m) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.once("error", (e) => {
      clearTimeout(timer);
      resolve({ wall: NaN, matched: `error: ${e.message}` });
    });
  });
}

const fmt = (ms) => (ms === Infinity ? `> ${CAP_MS} (stopped)` : ms < 1 ? ms.toFixed(3) : ms.toFixed(1));

console.log(`Node ${process.version}, URIs of ${SIZE.toLocaleString("en")} characters; SDK runs capped at ${CAP_MS} ms\n`);
console.log("adversarial match (ms)                        @proto wall   @proto CPU   match?   SDK wall              SDK match?   SDK / @proto");
for (const c of adversarial) {
  const o = oursAdversarial(c.template, c.uri);
  const s = await sdkAdversarial(c.template, c.uri);
  const ratio = s.wall === Infinity ? `> ${Math.round(CAP_MS / o.wall).toLocaleString("en")}x` : `${(s.wall / o.wall).toFixed(1)}x`;
  console.log(
    `  ${c.name.padEnd(44)} ${fmt(o.wall).padStart(10)} ${fmt(o.cpu).padStart(12)}   ${String(o.matched).padEnd(6)}   ${fmt(s.wall).padEnd(20)}  ${String(s.matched).padEnd(11)}  ${ratio}`,
  );
}

// Everyday use: a typical template, many short URIs.
function throughput(label, fn, count = 200_000) {
  for (let i = 0; i < 20_000; i++) fn(i);
  const start = performance.now();
  for (let i = 0; i < count; i++) fn(i);
  const ms = performance.now() - start;
  return { label, perSec: (count / ms) * 1000 };
}

const typical = "users/{id}/posts{?limit,offset}";
const oursT = ours.createUriTemplate(typical);
const sdkT = new UriTemplate(typical);
const uris = Array.from({ length: 64 }, (_, i) => `users/${1000 + i}/posts?limit=${i}&offset=${i * 10}`);
const vars = Array.from({ length: 64 }, (_, i) => ({ id: String(1000 + i), limit: String(i), offset: String(i * 10) }));
const rows = [
  [throughput("match  @proto", (i) => oursT.match(uris[i & 63])), throughput("match  SDK", (i) => sdkT.match(uris[i & 63]))],
  [throughput("expand @proto", (i) => oursT.expand(vars[i & 63])), throughput("expand SDK", (i) => sdkT.expand(vars[i & 63]))],
];
console.log(`\neveryday: ${typical}   (operations per second, higher is better)`);
for (const [a, b] of rows) {
  console.log(`  ${a.label.padEnd(14)} ${Math.round(a.perSec).toLocaleString("en").padStart(12)}   ${b.label.padEnd(12)} ${Math.round(b.perSec).toLocaleString("en").padStart(12)}   @proto / SDK ${(a.perSec / b.perSec).toFixed(2)}x`);
}
