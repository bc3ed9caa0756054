/**
 * A bearer-token provider that runs a configured command and sends what it prints (the
 * `gh auth token`, `gcloud auth print-access-token` pattern). Node only: exported from
 * `@proto/transport-http/node`.
 */
import { execFile } from "node:child_process";
import type { ExecFileException } from "node:child_process";
import type { HttpAuth } from "./http-auth";
import { cachedToken } from "./http-auth";

/** Options of `commandToken`. */
export interface CommandTokenOptions {
  /** The executable to run: a path, or a name looked up on PATH. Never run through a shell. */
  readonly command: string;
  /** Its arguments, passed as they are: no shell expands, splits or interprets them. */
  readonly args?: readonly string[];
  /** Milliseconds the command may run before it is killed. Default 30,000. */
  readonly timeoutMs?: number;
  /** Most bytes read from its stdout. Default 64 KiB. */
  readonly maxOutputBytes?: number;
  /** Working directory. Default: the current one. */
  readonly cwd?: string;
  /** Environment. Default: the current process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds the printed token is reused; default: until the server answers 401. */
  readonly cacheMs?: number;
}

function checkOptions(options: CommandTokenOptions): readonly string[] {
  if (typeof options.command !== "string" || options.command.trim() === "") {
    throw new TypeError("commandToken: `command` must be a non-empty string (the executable, without arguments)");
  }
  const args = options.args ?? [];
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
    throw new TypeError("commandToken: `args` must be an array of strings");
  }
  return args;
}

function describeFailure(error: ExecFileException, timeoutMs: number): string {
  if (error.code === "ENOENT") return "not found: check the path or PATH";
  if (error.code === "ERR_CHILD_PROCESS_STDIO_MAXBUFFER") return "printed more than maxOutputBytes";
  if (error.killed) return `killed after ${timeoutMs} ms`;
  if (typeof error.code === "number") return `exit code ${error.code}`;
  return error.signal ? `killed by ${error.signal}` : String(error.code ?? error.message);
}

function run(command: string, args: readonly string[], options: CommandTokenOptions): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...args],
      {
        shell: false,
        windowsHide: true,
        encoding: "utf8",
        timeout: timeoutMs,
        maxBuffer: options.maxOutputBytes ?? 64 * 1024,
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.env === undefined ? {} : { env: options.env }),
      },
      (error, stdout, stderr) => {
        if (error) {
          const said = stderr.trim().slice(0, 200);
          reject(new Error(`The token command "${command}" failed (${describeFailure(error, timeoutMs)})${said ? `: ${said}` : ""}`));
          return;
        }
        const token = stdout.trim();
        if (token === "") reject(new Error(`The token command "${command}" printed no token on stdout`));
        else resolve(token);
      },
    );
  });
}

/**
 * A provider that runs `command` with `args` (via `execFile`, never a shell), sends its
 * trimmed stdout as the bearer token, caches it, and runs the command again once after a
 * 401. A failing command, or one that prints nothing, fails the request with code `AUTH`.
 * On Windows, `.cmd` and `.bat` scripts need a shell and are not supported: point
 * `command` at an executable.
 */
export function commandToken(options: CommandTokenOptions): HttpAuth {
  const args = checkOptions(options);
  return cachedToken(() => run(options.command, args, options), options.cacheMs === undefined ? {} : { cacheMs: options.cacheMs });
}
