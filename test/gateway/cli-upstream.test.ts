/**
 * The `proto-gateway` CLI as a process, with the official SDK client upstream: over stdio
 * (`--mcp`, banner on stderr) and over Streamable HTTP (`--port 0`, children per session);
 * and its teardown: on stdin EOF every child's process group is gone, launchers included.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/e2e-transports";

const CLI = fileURLToPath(new URL("../../packages/mcp-gateway/src/cli.ts", import.meta.url));
// Plain JavaScript children (the official SDK v1), up well within the gateway's readyTimeoutMs on a loaded machine.
const CHILD = fileURLToPath(new URL("./fixtures/sdk-echo-child.mjs", import.meta.url));
const CRASH = fileURLToPath(new URL("./fixtures/crash-on-file.mjs", import.meta.url));
const ENV = { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` };
const child = (name: string) => ({ command: [process.execPath, CHILD, name], cwd: REPO_ROOT });

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function configFile(servers: (dir: string) => object): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), "gw-cli-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, "gateway.json");
  await writeFile(file, JSON.stringify({ mcpServers: servers(dir) }));
  return { dir, file };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("proto-gateway upstream of the official SDK client", () => {
  it("serves stdio: banner naming children and tools, namespaced calls, and no child process left after stdin EOF", async () => {
    const { dir, file } = await configFile((dir) => ({
      alpha: child("alpha"),
      // A launcher that starts a grandchild: both must go when the gateway goes.
      wrapped: { command: ["sh", "-c", `sleep 300 & echo $! > ${join(dir, "sleep.pid")}; exec "$0" "$1" wrapped`, process.execPath, CHILD], cwd: REPO_ROOT },
    }));
    const transport = new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", CLI, "--mcp", "--config", file], cwd: REPO_ROOT, env: { ...process.env, ...ENV } as Record<string, string>, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const sdk = new SdkClient({ name: "sdk-host", version: "1" });
    await sdk.connect(transport);
    const names = (await sdk.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["alpha__echo", "wrapped__echo"]));
    expect(await sdk.callTool({ name: "wrapped__echo", arguments: { text: "hi" } })).toMatchObject({ content: [{ type: "text", text: "wrapped:hi" }] });
    await expect.poll(() => stderr, { timeout: 20_000 }).toContain("Children:  2 (alpha, wrapped)");
    expect(stderr).toContain("alpha__echo");
    const sleepPid = Number(await readFile(join(dir, "sleep.pid"), "utf8"));
    expect(alive(sleepPid)).toBe(true);
    await sdk.close(); // ends the gateway's stdin
    await expect.poll(() => alive(sleepPid), { timeout: 15_000 }).toBe(false);
  });

  it("kills every child's process group, launchers' grandchildren included, when the gateway crashes (uncaught exception)", async () => {
    const { dir, file } = await configFile((dir) => ({
      wrapped: { command: ["sh", "-c", `sleep 300 & echo $! > ${join(dir, "sleep.pid")}; exec "$0" "$1" wrapped`, process.execPath, CHILD], cwd: REPO_ROOT },
    }));
    const crashFile = join(dir, "crash-now");
    const proc = spawn(process.execPath, ["--import", "tsx", "--import", CRASH, CLI, "--mcp", "--config", file], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...ENV, GW_CRASH_FILE: crashFile },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    cleanups.push(async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
      await exited;
    });
    await expect.poll(() => stderr, { timeout: 20_000 }).toContain("Children:  1 (wrapped)");
    const sleepPid = Number(await readFile(join(dir, "sleep.pid"), "utf8"));
    expect(alive(sleepPid)).toBe(true);
    await writeFile(crashFile, "");
    expect(await exited).toBe(1);
    expect(stderr).toContain("proto-gateway: crashed: Error: injected crash");
    await expect.poll(() => alive(sleepPid), { timeout: 15_000 }).toBe(false);
  });

  it("serves Streamable HTTP on 127.0.0.1 with children per session", async () => {
    const { file } = await configFile(() => ({ alpha: child("alpha") }));
    const proc = spawn(process.execPath, ["--import", "tsx", CLI, "--port", "0", "--config", file], { cwd: REPO_ROOT, env: { ...process.env, ...ENV }, stdio: ["ignore", "ignore", "pipe"] });
    cleanups.push(async () => {
      proc.kill("SIGTERM");
      await new Promise((r) => proc.once("exit", r));
    });
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    await expect.poll(() => /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)?.[1], { timeout: 20_000 }).toBeDefined();
    const port = /http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(stderr)?.[1] as string;
    const clients = await Promise.all(
      [1, 2].map(async (n) => {
        const sdk = new SdkClient({ name: `sdk-${n}`, version: "1" });
        await sdk.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
        cleanups.push(() => sdk.close());
        return sdk;
      }),
    );
    const pids = await Promise.all(clients.map(async (sdk) => ((await sdk.callTool({ name: "alpha__stats", arguments: {} })).structuredContent as { pid: number }).pid));
    expect(pids[0]).not.toBe(pids[1]); // each upstream session has its own child process
  });
});
