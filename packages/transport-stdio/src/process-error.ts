/**
 * Library faults of the stdio client transport: the child could not be started, or it went
 * away while connected. Stable string codes; listed in the package README.
 */
import { brandError } from "@proto/jsonrpc";

/** Stable codes of `StdioProcessError`. */
export const StdioFaultCode = {
  /** `spawn` failed (ENOENT: not found; EACCES: not executable; ...). `start()` rejects with it. */
  SpawnFailed: "SPAWN_FAILED",
  /** The child exited or was killed while the transport was open; pending requests fail with it as `cause`. */
  ProcessExited: "PROCESS_EXITED",
} as const;

/** One of the stable codes of `StdioProcessError`. */
export type StdioFaultCode = (typeof StdioFaultCode)[keyof typeof StdioFaultCode];

/** @deprecated Renamed `StdioFaultCode` (string codes of local faults live in `*FaultCode` tables); this alias goes in the next major. */
export const StdioErrorCode = StdioFaultCode;
/** @deprecated Renamed `StdioFaultCode`. */
export type StdioErrorCode = StdioFaultCode;

/** What a `StdioProcessError` carries besides its message. */
export interface StdioProcessErrorDetail {
  /** The command as given (`command` and `args`, for the message). */
  readonly command: string;
  /** The exit code, or null when the child was killed by a signal or never ran. */
  readonly exitCode?: number | null;
  /** The signal that killed the child (`"SIGSEGV"`), or null. */
  readonly signal?: NodeJS.Signals | null;
  /** The system error code of a failed spawn (`"ENOENT"`, `"EACCES"`), or undefined. */
  readonly errno?: string;
  /** The last lines the child wrote to stderr (empty when stderr was inherited). */
  readonly stderrTail?: readonly string[];
  /** The underlying error, when there is one. */
  readonly cause?: unknown;
}

/** The child process of a stdio client transport failed to start or went away. */
export class StdioProcessError extends Error {
  override readonly name = "StdioProcessError";
  /** `SPAWN_FAILED` or `PROCESS_EXITED`. */
  readonly code: StdioFaultCode;
  /** The command line, for display. */
  readonly command: string;
  /** The exit code, or null (killed by a signal, or never started). */
  readonly exitCode: number | null;
  /** The signal that ended the child, or null. */
  readonly signal: NodeJS.Signals | null;
  /** The system error code of a failed spawn, when there is one. */
  readonly errno: string | undefined;
  /** The last lines of the child's stderr, oldest first. */
  readonly stderrTail: readonly string[];

  /** Creates the error; the message should say what to do about it. */
  constructor(code: StdioFaultCode, message: string, detail: StdioProcessErrorDetail) {
    super(message, detail.cause === undefined ? undefined : { cause: detail.cause });
    this.code = code;
    this.command = detail.command;
    this.exitCode = detail.exitCode ?? null;
    this.signal = detail.signal ?? null;
    this.errno = detail.errno;
    this.stderrTail = detail.stderrTail ?? [];
  }
}

brandError(StdioProcessError, "@proto/transport-stdio:StdioProcessError");

/** True for a `StdioProcessError`, also one made by another copy of this package (its CJS or ESM build). */
export function isStdioProcessError(value: unknown): value is StdioProcessError {
  return value instanceof StdioProcessError;
}

function tailText(tail: readonly string[], inherited: boolean): string {
  if (inherited) return " Its stderr was inherited: look just above for its last output.";
  if (tail.length === 0) return " It wrote nothing to stderr.";
  return `\nLast stderr lines:\n${tail.map((line) => `  ${line}`).join("\n")}`;
}

/** The error of a child that went away while connected. */
export function exitedError(
  command: string,
  exit: { code: number | null; signal: NodeJS.Signals | null },
  tail: readonly string[],
  inherited: boolean,
): StdioProcessError {
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${String(exit.code)}`;
  return new StdioProcessError(
    StdioFaultCode.ProcessExited,
    `The MCP server process (${command}) ${how} while connected.${tailText(tail, inherited)}`,
    { command, exitCode: exit.code, signal: exit.signal, stderrTail: tail },
  );
}

const hints: { readonly [errno: string]: string } = {
  ENOENT: "not found: check the command name and PATH (an absolute path is safest), and that cwd exists",
  EACCES: "permission denied: the file is not executable (chmod +x) or a directory on its path is not searchable",
  EPERM: "operation not permitted",
  ENOTDIR: "a component of the command's path or of cwd is not a directory",
  E2BIG: "the arguments and environment are too large",
};

/** The error of a spawn that failed. */
export function spawnError(command: string, cause: unknown): StdioProcessError {
  const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
  const hint = (errno !== undefined ? hints[errno] : undefined) ?? (cause instanceof Error ? cause.message : String(cause));
  return new StdioProcessError(
    StdioFaultCode.SpawnFailed,
    `Could not start the MCP server process (${command}): ${errno !== undefined ? `${errno}, ` : ""}${hint}.`,
    { command, errno, cause },
  );
}
