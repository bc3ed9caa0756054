/**
 * Stdio children for Node: each runs through `@proto/transport-stdio` without a shell, in
 * its own process group (so what `npx`, `uvx` or `sh -c` started goes with it), with the
 * transport's small inherited environment plus the child's `env` (`${env:NAME}` expanded).
 * The spawner remembers live groups: `killAll()` sends them SIGKILL, for the crash paths of a
 * gateway process (an uncaught exception, a signal) where no orderly close runs.
 */
import type { Transport } from "@proto/jsonrpc";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { expandEnv } from "./child-transport";
import type { StdioChildConfig, StdioSpawner } from "./types";

/** A spawner that can also kill every group it started. */
export interface NodeStdioSpawner extends StdioSpawner {
  /** SIGKILLs every live child group now (synchronous: safe in `process.on("exit")`). */
  killAll(): void;
}

function killGroup(pid: number): void {
  try {
    process.kill(process.platform === "win32" ? pid : -pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** Creates the stdio spawner to pass as `createGateway({ stdio })`. */
export function createStdioSpawner(): NodeStdioSpawner {
  const live = new Set<number>();
  const spawn = (config: StdioChildConfig): Transport => {
    const [command, ...first] = typeof config.command === "string" ? [config.command] : config.command;
    const env = config.env === undefined ? undefined : Object.fromEntries(Object.entries(config.env).map(([k, v]) => [k, expandEnv(v)]));
    const transport = createStdioClientTransport({
      command: command as string,
      args: [...first, ...(config.args ?? [])],
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      ...(env === undefined ? {} : { env }),
      stderrTailLines: 40,
      processGroup: true,
    });
    const start = transport.start.bind(transport);
    const close = transport.close.bind(transport);
    return Object.assign(transport, {
      async start(sink: Parameters<Transport["start"]>[0]) {
        await start(sink);
        const pid = transport.pid;
        if (pid !== undefined) {
          live.add(pid);
          void transport.closed.then(() => {
            // The launcher is gone; whatever it left in its group goes too.
            killGroup(pid);
            live.delete(pid);
          });
        }
      },
      // Once the launcher has exited, what it left in its group is killed at once: a grandchild
      // holding the pipes must not keep the close waiting.
      async close(reason?: Error) {
        const pid = transport.pid;
        const closing = close(reason);
        const poll = setInterval(() => {
          if (pid !== undefined && transport.exitStatus !== undefined) killGroup(pid);
        }, 50);
        try {
          await closing;
        } finally {
          clearInterval(poll);
          if (pid !== undefined) killGroup(pid);
        }
      },
    });
  };
  return Object.assign(spawn, {
    killAll() {
      for (const pid of live) killGroup(pid);
      live.clear();
    },
  });
}
