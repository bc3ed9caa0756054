/**
 * Spawning the server process: never through a shell, with the environment policy of
 * `child-env.ts`, and with the spawn's outcome as a promise instead of an `error` event.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { childEnv } from "./child-env";
import type { StdioClientTransportOptions } from "./client-options";

/** Spawns the child with pipes for stdin and stdout, and stderr as asked. May throw (bad arguments). */
export function spawnChild(options: StdioClientTransportOptions, stderr: "inherit" | "pipe" | "ring"): ChildProcess {
  return spawn(options.command, [...(options.args ?? [])], {
    cwd: options.cwd,
    env: childEnv(options.env, options.inheritEnv === true),
    stdio: ["pipe", "pipe", stderr === "inherit" ? "inherit" : "pipe"],
    windowsHide: true,
    // Its own process group: close() can then signal every process the command started.
    detached: options.processGroup === true && process.platform !== "win32",
  });
}

/** Resolves once the child runs; rejects with the spawn's error (ENOENT, EACCES) otherwise. */
export function spawned(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.once("spawn", () => {
      child.off("error", reject);
      resolve();
    });
  });
}
