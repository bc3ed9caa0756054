/** `verify` for servers in modules and behind stdio commands (Node only). */
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { splitCommandLine } from "./command-line";
import { loadServerModule } from "./load-module";
import { verify } from "./verify-run";
import type { VerifyOptions } from "./verify-run";
import type { VerifyReport } from "./verify-types";

/** Options of `verifyModule` and `verifyCommand`. */
export interface VerifyNodeOptions extends VerifyOptions {
  /** Where relative paths resolve and the command runs. Default `process.cwd()`. */
  readonly cwd?: string;
}

/**
 * Verifies the server a module exports (`path.js[#exportName]`, see `loadServerModule`),
 * connected in memory. Calls the module's `close` (when it exported `{ server, close }`) after.
 */
export async function verifyModule(specifier: string, options: VerifyNodeOptions = {}): Promise<VerifyReport> {
  const loaded = await loadServerModule(specifier, options.cwd);
  try {
    return await verify({ server: loaded.server }, options);
  } finally {
    await loaded.close?.().catch(() => undefined);
  }
}

/**
 * Verifies a stdio server: spawns `command` (a command line such as `"node server.js --stdio"`,
 * split without a shell, or `{ command, args }`) with this process's environment, and stops
 * it when done.
 */
export async function verifyCommand(command: string | { readonly command: string; readonly args?: readonly string[] }, options: VerifyNodeOptions = {}): Promise<VerifyReport> {
  const line = typeof command === "string" ? splitCommandLine(command) : command;
  const transport = createStdioClientTransport({
    command: line.command,
    ...(line.args === undefined ? {} : { args: line.args }),
    inheritEnv: true,
    stderr: "ring",
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  return verify({ transport }, options);
}
