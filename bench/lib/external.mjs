// Runs the per-package bench scripts (written by the package engineers) as child processes and
// reads their figures from the lines they print, so bench/run.mjs reuses them without changing
// them. The whole output is kept too (results JSON `raw`), so a format change loses nothing.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { median, medianRatio } from "./stats.mjs";

const BENCH = fileURLToPath(new URL("../", import.meta.url));

/** Runs `node bench/<script> ...args` (cwd: the repository root), echoing its output when `echo`. */
export function runScript(script, args, { timeoutMs = 600_000, echo = true } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [`${BENCH}${script}`, ...args], { cwd: `${BENCH}..`, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
      if (echo) process.stdout.write(chunk.replace(/^(?=.)/gm, "    "));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve({ script, args, code, signal, seconds: (Date.now() - started) / 1000, stdout, stderr: stderr.slice(-4000) });
    });
  });
}

const number = (text) => Number(text.replace(/,/g, ""));

/**
 * Figures of bench/http.mjs from its per-round lines
 * (`round N <side> <req/s> req/s  p50 .. ms  p99 .. ms  <cpu> CPU µs/req`).
 */
export function parseHttp(stdout) {
  const runs = {};
  for (const match of stdout.matchAll(/round (\d+) (\S+)\s+([\d,.]+) req\/s\s+p50 ([\d.]+) ms\s+p99 ([\d.]+) ms\s+([\d,.]+|NaN) CPU/g)) {
    const [, , side, rps, p50, p99, cpu] = match;
    (runs[side] ??= []).push({ rps: number(rps), p50: Number(p50), p99: Number(p99), cpuPerRequest: number(cpu) });
  }
  if (!runs.proto || !runs.floor) return undefined;
  const summary = Object.fromEntries(Object.entries(runs).map(([side, r]) => [side, { rps: median(r.map((x) => x.rps)), cpuUsPerRequest: median(r.map((x) => x.cpuPerRequest)), p50Ms: median(r.map((x) => x.p50)) }]));
  const sdkSide = (summary["sdk-json"]?.rps ?? 0) >= (summary["sdk-sse"]?.rps ?? 0) ? "sdk-json" : "sdk-sse";
  const rps = (side) => (runs[side] ?? []).map((x) => x.rps);
  const cpu = (side) => (runs[side] ?? []).map((x) => x.cpuPerRequest);
  return {
    runs,
    summary,
    sdkSide,
    ratios: {
      vsFloor: medianRatio(rps("proto"), rps("floor")),
      vsSdkBest: medianRatio(rps("proto"), rps(sdkSide)),
      vsSdkDefault: medianRatio(rps("proto"), rps("sdk-sse")),
      transportVsFloor: medianRatio(rps("proto-transport"), rps("floor")),
      cpuVsFloor: medianRatio(cpu("proto"), cpu("floor")),
      cpuSdkOverProto: medianRatio(cpu(sdkSide), cpu("proto")),
    },
  };
}

/** Figures of bench/mcp-server.mjs from its summary lines (`<mode> @proto|SDK <list/s> <call/s>`). */
export function parseMcpServer(stdout) {
  const modes = {};
  for (const match of stdout.matchAll(/^(objects|json)\s+(@proto|SDK)\s+([\d,.]+)\s+([\d,.]+)\s*$/gm)) {
    const [, mode, side, list, call] = match;
    (modes[mode] ??= {})[side === "SDK" ? "sdk" : "proto"] = { listPerSec: number(list), callPerSec: number(call) };
  }
  for (const m of Object.values(modes)) {
    if (m.proto && m.sdk) m.ratios = { list: m.proto.listPerSec / m.sdk.listPerSec, call: m.proto.callPerSec / m.sdk.callPerSec };
  }
  return Object.keys(modes).length > 0 ? modes : undefined;
}
