/**
 * The MCP Inspector CLI (`@modelcontextprotocol/inspector --cli`, pinned in test/package.json)
 * upstream of the `proto-gateway` CLI: over stdio (the Inspector spawns `proto-gateway --mcp`)
 * and over Streamable HTTP (`proto-gateway --port 0`), `tools/list` and `tools/call` each.
 * The Inspector's postinstall (which installs the clients of a source checkout, and does
 * nothing as a dependency) is not run: `allowBuilds` in pnpm-workspace.yaml.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/e2e-transports";

const INSPECTOR = fileURLToPath(new URL("../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js", import.meta.url));
const CLI = fileURLToPath(new URL("../../packages/mcp-gateway/src/cli.ts", import.meta.url));
// Plain JavaScript, so it is up well within the gateway's readyTimeoutMs on a loaded machine.
const CHILD = fileURLToPath(new URL("./fixtures/sdk-echo-child.mjs", import.meta.url));
const TSCONFIG = `${REPO_ROOT}tsconfig.json`;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function configFile(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "gw-inspector-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "gateway.json");
  const alpha = { command: [process.execPath, CHILD, "alpha"], cwd: REPO_ROOT };
  await writeFile(file, JSON.stringify({ mcpServers: { alpha } }));
  return file;
}

/** Runs the Inspector CLI once; resolves with the JSON it printed on stdout. */
function inspect(args: readonly string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [INSPECTOR, "--cli", ...args], { cwd: REPO_ROOT, env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    proc.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    proc.once("error", reject);
    proc.once("close", (code) => {
      const start = stdout.indexOf("{");
      try {
        if (code !== 0 || start < 0) throw new Error(`exit ${String(code)}`);
        resolve(JSON.parse(stdout.slice(start)));
      } catch (error) {
        reject(new Error(`the Inspector CLI failed (${(error as Error).message}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

describe("the MCP Inspector CLI upstream of proto-gateway", () => {
  it("lists and calls namespaced tools over stdio", { timeout: 120_000 }, async () => {
    const file = await configFile();
    // `--` ends the Inspector's options: the gateway's own --config must reach the gateway.
    const server = ["-e", `TSX_TSCONFIG_PATH=${TSCONFIG}`, "--cwd", REPO_ROOT, "--", process.execPath, "--import", "tsx", CLI, "--mcp", "--config", file];
    const listed = (await inspect(["--method", "tools/list", ...server])) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["alpha__echo"]));
    const called = await inspect(["--method", "tools/call", "--tool-name", "alpha__echo", "--tool-arg", "text=from-inspector", ...server]);
    expect(called).toMatchObject({ content: [{ type: "text", text: "alpha:from-inspector" }] });
  });

  it("lists and calls namespaced tools over Streamable HTTP", { timeout: 120_000 }, async () => {
    const file = await configFile();
    const proc = spawn(process.execPath, ["--import", "tsx", CLI, "--port", "0", "--config", file], { cwd: REPO_ROOT, env: { ...process.env, TSX_TSCONFIG_PATH: TSCONFIG }, stdio: ["ignore", "ignore", "pipe"] });
    cleanups.push(async () => {
      proc.kill("SIGTERM");
      await new Promise((r) => proc.once("exit", r));
    });
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await expect.poll(() => /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)?.[1], { timeout: 60_000 }).toBeDefined();
    const url = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stderr)?.[0] as string;
    const listed = (await inspect([url, "--transport", "http", "--method", "tools/list"])) as { tools: { name: string }[] };
    expect(listed.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["alpha__echo"]));
    const called = await inspect([url, "--transport", "http", "--method", "tools/call", "--tool-name", "alpha__echo", "--tool-arg", "text=over-http"]);
    expect(called).toMatchObject({ content: [{ type: "text", text: "alpha:over-http" }] });
  });
});
