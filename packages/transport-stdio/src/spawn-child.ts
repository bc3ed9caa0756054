/**
 * Spawning the server process: never through a shell (on Windows, `.cmd` shims run through
 * `cmd.exe /d /s /c` with every argument quoted and escaped: `windows-command.ts`), with the
 * environment policy of `child-env.ts`, and with the spawn's outcome as a promise instead of
 * an `error` event.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { childEnv } from "./child-env";
import type { StdioClientTransportOptions } from "./client-options";
import { planSpawn, processCommandHost } from "./windows-command";

/** Spawns the child with pipes for stdin and stdout, and stderr as asked. May throw (bad arguments). */
export function spawnChild(options: StdioClientTransportOptions, stderr: "inherit" | "pipe" | "ring"): ChildProcess {
  const env = childEnv(options.env, options.inheritEnv === true);
  const plan = planSpawn(options.command, options.args ?? [], processCommandHost(env, options.cwd));
  return spawn(plan.command, [...plan.args], {
    cwd: options.cwd,
    env,
    stdio: ["pipe", "pipe", stderr === "inherit" ? "inherit" : "pipe"],
    windowsHide: true,
    windowsVerbatimArguments: plan.verbatim,
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
