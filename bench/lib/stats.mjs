// Small statistics and formatting helpers shared by the bench scripts (no dependencies).

/** The median of a list of numbers (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of per-round ratios a[i] / b[i]: load that drifts between rounds weighs on both sides alike. */
export function medianRatio(a, b) {
  const n = Math.min(a.length, b.length);
  return median(Array.from({ length: n }, (_, i) => a[i] / b[i]));
}

/** Formats a number with thousands separators and `digits` decimals; "n/a" for NaN. */
export function fmt(n, digits = 0) {
  if (n === undefined || n === null || !Number.isFinite(n)) return "n/a";
  return n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

/** Formats a ratio as "1.23x"; "n/a" when not finite. */
export function fmtRatio(n) {
  if (n === undefined || n === null || !Number.isFinite(n)) return "n/a";
  return `${n >= 100 ? fmt(n, 0) : n >= 10 ? fmt(n, 1) : fmt(n, 2)}x`;
}

/** Percentiles of a list of samples (sorted copy): { p50, p99, mean }. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  return { mean, p50: at(0.5), p99: at(0.99) };
}

/** Reads `--name value` from argv, else `fallback` (numbers when the fallback is a number). */
export function option(name, fallback, argv = process.argv.slice(2)) {
  const at = argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = argv[at + 1];
  return typeof fallback === "number" ? Number(value) : value;
}

/** True when `--name` is on the command line. */
export function flag(name, argv = process.argv.slice(2)) {
  return argv.includes(`--${name}`);
}

/** The marker a bench script prints before its one line of JSON results (`--json`). */
export const JSON_MARKER = "BENCH_JSON ";

/** Prints the results as one `BENCH_JSON {...}` line (what bench/run.mjs reads). */
export function emitJson(results) {
  process.stdout.write(`\n${JSON_MARKER}${JSON.stringify(results)}\n`);
}
