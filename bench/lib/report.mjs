// Builds the side-by-side table of bench/run.mjs (console and markdown) from the collected
// results. Ratios "vs floor" are ours / floor (as the targets are phrased); "vs SDK" says how
// many times better ours is (faster, fewer, smaller).
import { fmt, fmtRatio } from "./stats.mjs";

const MB = (bytes) => (Number.isFinite(bytes) ? `${fmt(bytes / 2 ** 20, 1)} MB` : "n/a");
const cell = (value, unit, digits = 0) => (Number.isFinite(value) ? `${fmt(value, digits)} ${unit}`.trim() : "n/a");
const verdict = (ok) => (ok === undefined ? "" : ok ? "met" : "NOT met");

function better(times, word) {
  return Number.isFinite(times) ? `${fmtRatio(times)} ${word}` : "n/a";
}

function stdioRows(stdio, rows) {
  const s = stdio.summary;
  const q = stdio.ratios;
  rows.push({
    measure: "stdio, sequential tools/call latency, p50 (mean)",
    floor: `${cell(s.floor.latencyP50Us, "µs")} (${fmt(s.floor.latencyMeanUs)})`,
    proto: `${cell(s.proto.latencyP50Us, "µs")} (${fmt(s.proto.latencyMeanUs)})`,
    sdk: `${cell(s.sdk.latencyP50Us, "µs")} (${fmt(s.sdk.latencyMeanUs)})`,
    vsFloor: `${fmtRatio(q.latencyP50VsFloor)} (mean ${fmtRatio(q.latencyMeanVsFloor)})`,
    vsSdk: better(1 / q.latencyMeanVsSdk, "faster (mean)"),
  });
  rows.push({
    measure: "stdio, tools/call with 64 in flight (CPU µs per call, both processes)",
    floor: `${cell(s.floor.callsPerSec, "calls/s")} (${fmt(s.floor.cpuUsPerCall, 1)})`,
    proto: `${cell(s.proto.callsPerSec, "calls/s")} (${fmt(s.proto.cpuUsPerCall, 1)})`,
    sdk: `${cell(s.sdk.callsPerSec, "calls/s")} (${fmt(s.sdk.cpuUsPerCall, 1)})`,
    vsFloor: `${fmtRatio(q.throughputVsFloor)} (CPU ${fmtRatio(q.callCpuVsFloor)}; coalesced floor ${fmtRatio(q.throughputVsCoalescedFloor)})`,
    vsSdk: better(q.throughputVsSdk, "faster"),
    target: ">= 0.7x floor",
    met: q.throughputVsFloor >= 0.7,
  });
  rows.push({
    measure: "stdio, tools/list of 100 tools (client + server)",
    floor: cell(s.floor.toolsListUs, "µs"),
    proto: cell(s.proto.toolsListUs, "µs"),
    sdk: cell(s.sdk.toolsListUs, "µs"),
    vsFloor: fmtRatio(q.toolsListVsFloor),
    vsSdk: better(q.toolsListSpeedupVsSdk, "faster"),
    target: "<= 2x floor",
    met: q.toolsListVsFloor <= 2,
  });
}

function layerRows(layer, rows) {
  rows.push({
    measure: "server layer, tools/list of 100 tools (in-process, JSON)",
    floor: "",
    proto: cell(layer.proto.listPerSec, "lists/s"),
    sdk: cell(layer.sdk.listPerSec, "lists/s"),
    vsFloor: "",
    vsSdk: better(layer.ratios.list, "faster"),
    target: ">= 10x SDK",
    met: layer.ratios.list >= 10,
  });
  rows.push({
    measure: "server layer, tools/call (in-process, JSON)",
    floor: "",
    proto: cell(layer.proto.callPerSec, "calls/s"),
    sdk: cell(layer.sdk.callPerSec, "calls/s"),
    vsFloor: "",
    vsSdk: better(layer.ratios.call, "faster"),
    target: ">= 2x SDK",
    met: layer.ratios.call >= 2,
  });
}

function httpRow(http, rows) {
  const s = http.summary;
  rows.push({
    measure: "Streamable HTTP, tools/call, autocannon 32 connections (server CPU µs per request)",
    floor: `${cell(s.floor.rps, "req/s")} (${fmt(s.floor.cpuUsPerRequest, 1)})`,
    proto: `${cell(s.proto.rps, "req/s")} (${fmt(s.proto.cpuUsPerRequest, 1)})`,
    sdk: `${cell(s[http.sdkSide]?.rps, "req/s")} (${fmt(s[http.sdkSide]?.cpuUsPerRequest, 1)}; ${http.sdkSide === "sdk-json" ? "JSON" : "SSE"} answers)`,
    vsFloor: `${fmtRatio(http.ratios.vsFloor)} (CPU ${fmtRatio(http.ratios.cpuVsFloor)})`,
    vsSdk: `${better(http.ratios.vsSdkBest, "faster")} (CPU ${fmtRatio(http.ratios.cpuSdkOverProto)} less)`,
    target: ">= 0.5x floor, >= 4x SDK",
    met: http.ratios.vsFloor >= 0.5 && http.ratios.vsSdkBest >= 4,
  });
}

function startRows(cold, imports, rows) {
  if (cold) {
    const s = cold.summary;
    rows.push({
      measure: `cold start, spawn to initialize answered (${cold.options.tools} tools)`,
      floor: cell(s.floor.medianMs, "ms", 1),
      proto: cell(s.proto.medianMs, "ms", 1),
      sdk: cell(s.sdk.medianMs, "ms", 1),
      vsFloor: fmtRatio(cold.ratios.vsFloor),
      vsSdk: better(cold.ratios.sdkOverProto, "faster"),
      target: "<= 1.3x floor",
      met: cold.ratios.vsFloor <= 1.3,
    });
  }
  if (imports) {
    const s = imports.summary;
    rows.push({
      measure: "import time, server + stdio transport",
      floor: `${cell(s.floor.importMs, "ms", 1)} (node:readline)`,
      proto: cell(s["proto-server"].importMs, "ms", 1),
      sdk: cell(s["sdk-server"].importMs, "ms", 1),
      vsFloor: "",
      vsSdk: better(imports.ratios.serverSdkOverProto, "faster"),
    });
    rows.push({
      measure: "import time, client + stdio transport",
      floor: "",
      proto: cell(s["proto-client"].importMs, "ms", 1),
      sdk: cell(s["sdk-client"].importMs, "ms", 1),
      vsFloor: "",
      vsSdk: better(imports.ratios.clientSdkOverProto, "faster"),
    });
  }
}

function sizeRows(fp, stdio, rows) {
  if (fp) {
    rows.push({
      measure: "install footprint of a stdio server (npm)",
      floor: "",
      proto: fp.ours ? `${fp.ours.packages} packages, ${fmt(fp.ours.bytes / 1e6, 2)} MB` : "not measured",
      sdk: fp.sdk ? `${fp.sdk.packages} packages, ${fmt(fp.sdk.bytes / 1e6, 2)} MB` : "not measured",
      vsFloor: "",
      vsSdk: fp.ours && fp.sdk ? `${fmtRatio(fp.ratios.packagesSdkOverOurs)} fewer, ${fmtRatio(fp.ratios.bytesSdkOverOurs)} smaller` : "n/a",
      target: "<= 10 packages",
      met: fp.ours ? fp.ours.packages <= 10 : undefined,
    });
  }
  if (stdio) {
    const s = stdio.summary;
    rows.push({
      measure: "server RSS after 20,000 stdio calls",
      floor: MB(s.floor.rssBytes),
      proto: MB(s.proto.rssBytes),
      sdk: MB(s.sdk.rssBytes),
      vsFloor: fmtRatio(stdio.ratios.rssVsFloor),
      vsSdk: better(1 / stdio.ratios.rssVsSdk, "smaller"),
    });
  }
}

/** The rows of the table: { measure, floor, proto, sdk, vsFloor, vsSdk, target, met }. */
export function buildRows(r) {
  const rows = [];
  if (r.stdio) stdioRows(r.stdio, rows);
  if (r.serverLayer?.json?.ratios) layerRows(r.serverLayer.json, rows);
  if (r.http) httpRow(r.http, rows);
  startRows(r.coldStart, r.importTime, rows);
  sizeRows(r.footprint, r.stdio, rows);
  return rows;
}

const HEAD = ["measure", "floor", "@proto", "official SDK", "@proto / floor", "@proto vs SDK", "target", ""];

/** The table as markdown. */
export function toMarkdown(rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  return [
    line(HEAD),
    line(HEAD.map((_, i) => (i === 0 ? "---" : i >= 6 ? ":---" : "---:"))),
    ...rows.map((r) => line([r.measure, r.floor, r.proto, r.sdk, r.vsFloor, r.vsSdk, r.target ?? "", verdict(r.met)])),
  ].join("\n");
}

/** The table for a terminal. */
export function toText(rows) {
  const cells = [HEAD, ...rows.map((r) => [r.measure, r.floor, r.proto, r.sdk, r.vsFloor, r.vsSdk, r.target ?? "", verdict(r.met)])];
  const widths = HEAD.map((_, i) => Math.max(...cells.map((c) => String(c[i]).length)));
  return cells.map((c) => c.map((v, i) => (i === 0 ? String(v).padEnd(widths[i]) : String(v).padStart(widths[i]))).join("  ")).join("\n");
}

/** One line naming the machine and its load. */
export function machineLine(m) {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}; load average at start ${m.loadAverage.join(" / ")}`;
}
