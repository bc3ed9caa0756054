/**
 * A `Logger` that writes one line per entry to a stream (stderr: the MCP stdio transport keeps
 * stdout for messages, spec 2025-11-25 "Transports > stdio"), with a level below which entries
 * are dropped. An error's stack follows its line, indented.
 */
import type { Writable } from "node:stream";
import type { Logger } from "@proto/jsonrpc";

/** Levels, least severe first. */
export const LogLevel = { Debug: "debug", Info: "info", Warn: "warn", Error: "error" } as const;
/** One of `LogLevel`. */
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel];

const RANK: { readonly [level in LogLevel]: number } = { debug: 0, info: 1, warn: 2, error: 3 };

/** True when `value` names a level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && Object.hasOwn(RANK, value);
}

function describe(detail: unknown): string {
  if (detail === undefined) return "";
  if (detail instanceof Error) return `\n  ${(detail.stack ?? `${detail.name}: ${detail.message}`).replace(/\n/g, "\n  ")}`;
  try {
    return ` ${typeof detail === "string" ? detail : JSON.stringify(detail)}`;
  } catch {
    return ` ${String(detail)}`;
  }
}

/**
 * Creates a logger writing `[name] level: message detail` lines to `stream` for entries at
 * `level` or above (default `info`). The caller owns the stream. `debug` is left off the
 * logger unless `level` is `debug`, so wire traces cost nothing otherwise.
 */
export function createStreamLogger(stream: Writable, options: { readonly level?: LogLevel; readonly name?: string } = {}): Logger {
  const level = options.level ?? LogLevel.Info;
  if (!isLogLevel(level)) throw new TypeError(`createStreamLogger: level must be one of debug, info, warn, error; got ${JSON.stringify(level)}`);
  const prefix = options.name === undefined ? "" : `[${options.name}] `;
  const write = (at: LogLevel) => (message: string, detail?: unknown) => void stream.write(`${prefix}${at}: ${message}${describe(detail)}\n`);
  const logger: { -readonly [K in keyof Logger]: Logger[K] } = { warn: write("warn"), error: write("error") };
  if (RANK[level] > RANK.warn) logger.warn = () => {};
  if (RANK[level] <= RANK.info) logger.info = write("info");
  if (RANK[level] <= RANK.debug) logger.debug = write("debug");
  return logger;
}
