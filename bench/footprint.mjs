// Benchmark: install footprint of a stdio server project. Two fresh projects in a temp dir:
//   ours: only @proto/mcp-server and @proto/transport-stdio, from `pnpm pack` tarballs of the
//         BUILT packages (their @proto dependencies pinned to the local tarballs by `overrides`);
//   sdk:  only @modelcontextprotocol/sdk 1.32.2, from the registry (npm's cache first:
//         --prefer-offline).
// Each is installed by npm (no scripts, no audit); then the installed packages are counted and
// their files summed. Anything that cannot be installed (no cache, no network) is reported as
// not measured, with the reason. Temp dirs are removed at the end.
//   node bench/footprint.mjs [--keep] [--json]
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { emitJson, flag, fmt, fmtRatio } from "./lib/stats.mjs";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const OURS = ["jsonrpc", "mcp-protocol", "mcp-server", "transport-stdio"];
const SDK_VERSION = "1.32.2";
const NPM_FLAGS = ["install", "--prefer-offline", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error", "--no-package-lock"];

/** Packs our built packages with pnpm (which rewrites `workspace:^` ranges); returns name -> tarball path. */
async function packOurs(dir) {
  const tarballs = {};
  for (const name of OURS) {
    const cwd = join(ROOT, "packages", name);
    const { stdout } = await run("npx", ["-y", "pnpm@12.4.2", "pack", "--pack-destination", dir], { cwd, timeout: 120_000 });
    const file = stdout.trim().split("\n").filter((l) => l.endsWith(".tgz")).pop();
    if (!file) throw new Error(`pnpm pack of ${name} printed no tarball: ${stdout}`);
    tarballs[`@proto/${name}`] = file.startsWith("/") ? file : join(dir, file);
  }
  return tarballs;
}

/** Counts installed packages (every folder under a node_modules, scoped or not, nested too) and sums file bytes. */
async function measureTree(nodeModules) {
  const names = [];
  async function countPackages(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
      if (!entry.name.startsWith("@")) await onePackage(join(dir, entry.name), entry.name);
      else {
        for (const scoped of await readdir(join(dir, entry.name), { withFileTypes: true })) {
          if (scoped.isDirectory()) await onePackage(join(dir, entry.name, scoped.name), `${entry.name}/${scoped.name}`);
        }
      }
    }
  }
  async function onePackage(dir, name) {
    names.push(name);
    const nested = join(dir, "node_modules");
    if (await stat(nested).then((s) => s.isDirectory(), () => false)) await countPackages(nested);
  }
  await countPackages(nodeModules);
  return { packages: names.length, bytes: await bytesUnder(nodeModules), protoBytes: await bytesUnder(join(nodeModules, "@proto")), names: [...new Set(names)].sort() };
}

/** Sums the sizes of the files under `dir` (0 when it does not exist); symbolic links are not followed. */
async function bytesUnder(dir) {
  let bytes = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) bytes += await bytesUnder(path);
    else if (entry.isFile()) bytes += (await stat(path)).size;
  }
  return bytes;
}

async function installProject(dir, manifest) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: "footprint", private: true, version: "1.0.0", ...manifest }, null, 2));
  const started = Date.now();
  await run("npm", NPM_FLAGS, { cwd: dir, timeout: 300_000 });
  return { ...(await measureTree(join(dir, "node_modules"))), installSeconds: (Date.now() - started) / 1000 };
}

export async function runFootprint({ keep = false } = {}) {
  const base = await mkdtemp(join(tmpdir(), "proto-footprint-"));
  const result = { ours: undefined, sdk: undefined, notes: [] };
  try {
    try {
      const tarballs = await packOurs(join(base, "tarballs"));
      const file = (name) => `file:${tarballs[name]}`;
      result.ours = await installProject(join(base, "ours"), {
        dependencies: { "@proto/mcp-server": file("@proto/mcp-server"), "@proto/transport-stdio": file("@proto/transport-stdio") },
        overrides: { "@proto/jsonrpc": file("@proto/jsonrpc"), "@proto/mcp-protocol": file("@proto/mcp-protocol") },
      });
      const sizes = await Promise.all(Object.values(tarballs).map((t) => stat(t).then((s) => s.size)));
      result.ours.tarballBytes = sizes.reduce((a, b) => a + b, 0);
    } catch (error) {
      result.notes.push(`ours not measured: ${String(error.message ?? error).split("\n")[0]}`);
    }
    try {
      result.sdk = await installProject(join(base, "sdk"), { dependencies: { "@modelcontextprotocol/sdk": SDK_VERSION } });
    } catch (error) {
      result.notes.push(`SDK not measured (needs npm's cache or the registry): ${String(error.message ?? error).split("\n")[0]}`);
    }
  } finally {
    if (!keep) await rm(base, { recursive: true, force: true });
    else result.notes.push(`kept ${base}`);
  }
  result.ratios = {
    packagesSdkOverOurs: result.ours && result.sdk ? result.sdk.packages / result.ours.packages : Number.NaN,
    bytesSdkOverOurs: result.ours && result.sdk ? result.sdk.bytes / result.ours.bytes : Number.NaN,
  };
  return result;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  process.stdout.write(`install footprint of a stdio server project (npm ${(await run("npm", ["--version"])).stdout.trim()}, Node ${process.version})\n`);
  const result = await runFootprint({ keep: flag("keep") });
  for (const [label, r] of [["@proto/mcp-server + @proto/transport-stdio", result.ours], [`@modelcontextprotocol/sdk ${SDK_VERSION}`, result.sdk]]) {
    if (r) process.stdout.write(`  ${label.padEnd(44)} ${String(r.packages).padStart(4)} packages   ${fmt(r.bytes / 1e6, 2).padStart(6)} MB\n`);
  }
  if (result.ours) process.stdout.write(`  ours: ${result.ours.names.join(", ")} (target <= 10 packages); @proto/* ${fmt(result.ours.protoBytes / 1e6, 2)} MB of it\n`);
  process.stdout.write(`  SDK / ours: ${fmtRatio(result.ratios.packagesSdkOverOurs)} packages, ${fmtRatio(result.ratios.bytesSdkOverOurs)} bytes\n`);
  for (const note of result.notes) process.stdout.write(`  note: ${note}\n`);
  if (flag("json")) emitJson(result);
}
