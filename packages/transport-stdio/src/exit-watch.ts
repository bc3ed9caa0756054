/**
 * Watches a child process until it is gone, and escalates its shutdown on request: the
 * caller has already ended its stdin; after `exitMs` it gets SIGTERM, after `killMs` more
 * SIGKILL (MCP spec 2025-11-25, "Lifecycle > Shutdown > stdio").
 */
import type { ChildProcess } from "node:child_process";
import type { Logger } from "@proto/jsonrpc";

/** How a child process ended. */
export interface ExitStatus {
  /** The exit code, or null when a signal ended it. */
  readonly code: number | null;
  /** The signal that ended it (`"SIGKILL"`), or null when it exited by itself. */
  readonly signal: NodeJS.Signals | null;
}

/** The watch of one child. */
export interface ExitWatch {
  /** Set once the child has exited. */
  readonly exit: ExitStatus | undefined;
  /** Starts the SIGTERM/SIGKILL timers, unless the child has exited or they already run. */
  escalate(): void;
  /** Clears every timer. */
  dispose(): void;
}

// After 'exit', 'close' waits for the child's pipes; a grandchild holding them must not stall us.
const PIPES_AFTER_EXIT_MS = 2_000;

/** Calls `gone` once the child has exited and its pipes are closed (or shortly after exit). */
export function createExitWatch(
  child: ChildProcess,
  grace: { readonly exitMs: number; readonly killMs: number },
  logger: Logger | undefined,
  gone: () => void,
  group = false,
): ExitWatch {
  let exit: ExitStatus | undefined;
  let escalating = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();

  function later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  }

  function dispose(): void {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  }

  function kill(signal: NodeJS.Signals): void {
    if (exit !== undefined) return;
    if (group && child.pid !== undefined) {
      try {
        process.kill(-child.pid, signal);
        return;
      } catch {
        // The group is gone or not ours: signal the child alone.
      }
    }
    if (!child.kill(signal)) logger?.warn(`Sending ${signal} to the MCP server process (pid ${String(child.pid)}) failed.`);
  }

  child.on("exit", (code, signal) => {
    exit = { code, signal };
    dispose();
    later(PIPES_AFTER_EXIT_MS, gone);
  });
  child.on("close", gone);
  let spawned = false;
  child.once("spawn", () => (spawned = true));
  // Before 'spawn', an error is the spawn failure that start() reports; after, it is a failed kill or the like.
  child.on("error", (error) => {
    if (spawned) logger?.warn("The MCP server process reported an error.", error);
  });

  return {
    get exit() {
      return exit;
    },
    escalate() {
      if (exit !== undefined || escalating) return;
      escalating = true;
      later(grace.exitMs, () => {
        kill("SIGTERM");
        later(grace.killMs, () => kill("SIGKILL"));
      });
    },
    dispose,
  };
}
