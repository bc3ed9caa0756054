/**
 * Runs a Worker in workerd: bundles the module with esbuild (Worker conditions, no Node
 * built-ins), writes a config whose one socket binds 127.0.0.1 port 0, starts `workerd serve`
 * and reads the port it bound from its control pipe (fd 3).
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { WORKERD } from "./runtimes";

/** A running workerd: the Worker's URL and how to stop it. */
export interface RunningWorker {
  readonly url: string;
  stop(): Promise<void>;
}

function config(compatibilityDate: string): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker", esModule = embed "worker.js") ],
  compatibilityDate = "${compatibilityDate}",
);
`;
}

function listenPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = "";
    const control = child.stdio[3] as NodeJS.ReadableStream;
    control.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        const event = JSON.parse(line) as { event?: string; port?: number };
        if (event.event === "listen" && typeof event.port === "number") resolve(event.port);
      }
    });
    child.once("exit", (code) => reject(new Error(`workerd exited (${String(code)}) before listening`)));
    child.once("error", reject);
  });
}

/** Bundles `entry` and serves it in workerd until `stop()`. */
export async function runWorker(entry: string, compatibilityDate = "2025-09-01"): Promise<RunningWorker> {
  const dir = mkdtempSync(join(tmpdir(), "proto-workerd-"));
  await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "browser", conditions: ["workerd", "worker", "browser"], outfile: join(dir, "worker.js"), logLevel: "error" });
  writeFileSync(join(dir, "config.capnp"), config(compatibilityDate));
  const child = spawn(WORKERD, ["serve", join(dir, "config.capnp"), "--control-fd=3"], { stdio: ["ignore", "ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const port = await listenPort(child).catch((error: Error) => {
    throw new Error(`${error.message}: ${stderr}`);
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
