/**
 * Guards two stdio promises end to end, with a real child process running our scenario server:
 * - on the wire, a call's progress and log notifications come before its response, in order
 *   (hosts that drop progress arriving after the response would otherwise lose it);
 * - `client.close()` ends the child (stdin closed, then signals): no orphan server process.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { REPO_ROOT } from "../support/e2e-transports";

const fixture = fileURLToPath(new URL("./fixtures/scenario-stdio.ts", import.meta.url));
const childArgs = ["--import", "tsx", fixture];
const childEnv = { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("our stdio server process", { timeout: 90_000 }, () => {
  it("writes a call's progress and logs before its response, in order", async () => {
    const child = spawn(process.execPath, childArgs, { cwd: REPO_ROOT, env: { ...process.env, ...childEnv }, stdio: ["pipe", "pipe", "inherit"] });
    const lines = createInterface({ input: child.stdout });
    const seen: { method?: string; id?: number; params?: { progress?: number; data?: { step: number } } }[] = [];
    const done = new Promise<void>((resolve) => {
      lines.on("line", (line) => {
        const message = JSON.parse(line) as (typeof seen)[number];
        seen.push(message);
        if (message.id === 3) resolve();
      });
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({ id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "logging/setLevel", params: { level: "info" } });
    send({ id: 3, method: "tools/call", params: { name: "work", arguments: { steps: 4 }, _meta: { progressToken: "p" } } });
    await done;
    child.stdin.end();
    const call = seen.slice(seen.findIndex((m) => m.id === 2) + 1);
    expect(call.map((m) => m.method ?? `response ${m.id}`)).toEqual([
      ...Array.from({ length: 4 }, () => ["notifications/progress", "notifications/message"]).flat(),
      "response 3",
    ]);
    expect(call.filter((m) => m.method === "notifications/progress").map((m) => m.params?.progress)).toEqual([1, 2, 3, 4]);
    expect(call.filter((m) => m.method === "notifications/message").map((m) => m.params?.data?.step)).toEqual([1, 2, 3, 4]);
    await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once("exit", resolve)));
  });

  it("is ended by client.close(): no orphan process", async () => {
    const transport = createStdioClientTransport({ command: process.execPath, args: childArgs, cwd: REPO_ROOT, env: childEnv });
    const client = createClient({ info: { name: "host", version: "1" }, connectTimeoutMs: 60_000 });
    await client.connect(transport);
    const pid = transport.pid;
    expect(pid).toBeGreaterThan(0);
    expect(isAlive(pid!)).toBe(true);
    await client.close();
    expect(transport.exitStatus).toBeDefined();
    expect(isAlive(pid!)).toBe(false);
  });
});
