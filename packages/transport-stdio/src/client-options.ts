/**
 * Options of the stdio client transport, and their checking: every mistake is a `TypeError`
 * that says what is accepted, thrown by `createStdioClientTransport` before anything runs.
 */
import type { DecodeLimits, Logger } from "@proto/jsonrpc";

/** Options of `createStdioClientTransport`. */
export interface StdioClientTransportOptions {
  /** The program to run (no shell: an absolute path, or a name looked up on the child's PATH). */
  readonly command: string;
  /** Its arguments, passed as they are (never through a shell). */
  readonly args?: readonly string[];
  /** Variables added to the child's environment; `undefined` removes one. */
  readonly env?: { readonly [name: string]: string | undefined };
  /** Inherit all of `process.env` instead of the small default set (PATH, HOME, locale, temp dirs). Default false. */
  readonly inheritEnv?: boolean;
  /** The child's working directory. Default: this process's. */
  readonly cwd?: string | URL;
  /**
   * The child's stderr: `"inherit"` shares ours; `"ring"` (default) keeps its last lines for
   * errors; `"pipe"` keeps the last lines too and exposes the stream as `transport.stderr`.
   */
  readonly stderr?: "inherit" | "pipe" | "ring";
  /** How many stderr lines to keep for errors and `stderrTail()`. Default 20. */
  readonly stderrTailLines?: number;
  /** After `close()` ends the child's stdin, how long (ms) it may take to exit before SIGTERM. Default 2,000. */
  readonly exitGraceMs?: number;
  /** After SIGTERM, how long (ms) before SIGKILL. Default 2,000. */
  readonly killGraceMs?: number;
  /**
   * Longest accepted inbound line in bytes. A longer line is dropped and reported `OVERSIZED`; a
   * request on it is answered -32600 with its id, a response on it fails the request it answers
   * at once (`RequestError` `OVERSIZED`). Default: `limits.maxMessageBytes`, else 4 MiB, so
   * `limits: { maxMessageBytes }` raises both limits together.
   */
  readonly maxLineBytes?: number;
  /** Codec limits for each line (`maxMessageBytes`, `maxDepth`, `maxBatch`). */
  readonly limits?: DecodeLimits;
  /**
   * Run the child in its own process group (POSIX) and signal the whole group on close, so
   * the processes a launcher starts (`npx`, `uvx`, `sh -c`) go with it. Default false. On
   * Windows it has no effect.
   */
  readonly processGroup?: boolean;
  /** Receives faults that have no caller to reject (a failed kill, a sink's own throw). Default: discard. */
  readonly logger?: Logger;
}

/** The options after checking, with their defaults. */
export interface ResolvedClientOptions {
  /** The command line for messages, cut at 200 characters. */
  readonly display: string;
  /** The whole command line (`command` and `args` joined by spaces): the transport's `serverKey`. */
  readonly commandLine: string;
  /** What to do with the child's stderr. */
  readonly stderr: "inherit" | "pipe" | "ring";
  /** How many stderr lines to keep. */
  readonly stderrTailLines: number;
  /** The two grace periods of `close()`, in ms. */
  readonly grace: { readonly exitMs: number; readonly killMs: number };
  /** What the line decoder checks (it validates them itself). */
  readonly decoder: { readonly maxLineBytes: number | undefined; readonly limits: DecodeLimits | undefined };
}

function checkMs(value: number | undefined, name: string): number {
  if (value === undefined) return 2_000;
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a number of milliseconds >= 0, got ${String(value)}`);
  return value;
}

/** Checks `options` and fills in the defaults. */
export function resolveClientOptions(options: StdioClientTransportOptions): ResolvedClientOptions {
  if (typeof options?.command !== "string" || options.command.length === 0) {
    throw new TypeError("createStdioClientTransport needs `command`: the program that runs the MCP server.");
  }
  if (options.args !== undefined && (!Array.isArray(options.args) || !options.args.every((arg) => typeof arg === "string"))) {
    throw new TypeError("args must be an array of strings (each passed to the program as it is, never through a shell).");
  }
  const stderr = options.stderr ?? "ring";
  if (stderr !== "inherit" && stderr !== "pipe" && stderr !== "ring") {
    throw new TypeError(`stderr must be "inherit", "pipe" or "ring", got ${String(stderr)}`);
  }
  const lines = options.stderrTailLines ?? 20;
  if (!Number.isSafeInteger(lines) || lines < 0) throw new TypeError(`stderrTailLines must be an integer >= 0, got ${String(lines)}`);
  const commandLine = [options.command, ...(options.args ?? [])].join(" ");
  return {
    display: commandLine.slice(0, 200),
    commandLine,
    stderr,
    stderrTailLines: lines,
    grace: { exitMs: checkMs(options.exitGraceMs, "exitGraceMs"), killMs: checkMs(options.killGraceMs, "killGraceMs") },
    decoder: { maxLineBytes: options.maxLineBytes, limits: options.limits },
  };
}
