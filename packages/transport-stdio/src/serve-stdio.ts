/**
 * `serveStdio`: the one call that turns a server definition into a stdio MCP server process.
 * It takes any object with `connect` and `summary` (structurally; `@proto/mcp-server`'s server
 * is one), so this package does not depend on the server package.
 */
import type { Writable } from "node:stream";
import { traceTransport } from "@proto/jsonrpc";
import type { Logger, Transport } from "@proto/jsonrpc";
import { formatBanner } from "./banner";
import type { ServerSummary } from "./banner";
import { redirectConsoleToStderr } from "./console-redirect";
import { createStreamLogger, isLogLevel } from "./stderr-logger";
import type { LogLevel } from "./stderr-logger";
import { createStdioServerTransport } from "./stdio-server";
import type { StdioServerTransport, StdioServerTransportOptions } from "./stdio-server";

/** What `serveStdio` needs of a server: connect it to a transport, and describe it for the banner. */
export interface StdioServable<Session = unknown> {
  /** Connects one session to the transport (starting it). */
  connect(transport: Transport): Promise<Session>;
  /** Name, version, protocol version and tool names, for the banner. */
  summary(): ServerSummary;
  /** Takes the logger to use when the server was created without one (`@proto/mcp-server` has it). */
  fallbackLogger?(logger: Logger): void;
}

/** Options of `serveStdio`: those of the server transport, plus the process-level ones. */
export interface ServeStdioOptions extends Omit<StdioServerTransportOptions, "logger"> {
  /** Print the start-up banner to `stderr`. Default: only when stdin is a terminal (a person, not a host). */
  readonly banner?: boolean;
  /**
   * Where faults go: handlers that throw, bad lines, failed writes. Default: `stderr`, one line
   * each, at the level of `PROTO_MCP_LOG_LEVEL` (`debug`, `info`, `warn`, `error`; default
   * `info`). It is also the server's logger when the server was created without one. `false`
   * logs nothing.
   */
  readonly logger?: Logger | false;
  /** Log every message in and out at `debug`, secrets redacted. Default: the `PROTO_MCP_TRACE` environment variable is `1`. */
  readonly trace?: boolean;
  /** Where the banner and redirected console output go. Default `process.stderr`. */
  readonly stderr?: Writable;
  /** Send the global console's stdout methods to `stderr` while serving (restored on close). Default true. */
  readonly redirectConsole?: boolean;
  /**
   * Exit the process once the transport has closed (stdin ended: the host is gone) and stdout
   * is flushed, even if timers or sockets would keep it alive. Exit code 0, or 1 when it closed
   * because of a fault. Default true when serving on this process's own stdin/stdout.
   */
  readonly exitOnClose?: boolean;
}

/** A running stdio service. */
export interface StdioService<Session = unknown> {
  /** What the server's `connect` returned. */
  readonly session: Session;
  /** The transport it serves on. */
  readonly transport: StdioServerTransport;
  /** Resolves once the transport has closed, with the fault, if any. */
  readonly closed: Promise<Error | undefined>;
  /** Closes the transport (the session sees its transport close). */
  close(reason?: Error): Promise<void>;
}

/**
 * Serves `server` on stdin/stdout (MCP spec 2025-11-25, "Transports > stdio"): creates the
 * server transport, connects the server, then prints the banner (name, protocol version, tools,
 * example request lines) to stderr. The service lives until stdin ends, stdout fails, or
 * `close()`; then, by default, the process exits. Rejects (and closes the transport) when
 * `connect` rejects.
 */
export async function serveStdio<Session>(server: StdioServable<Session>, options: ServeStdioOptions = {}): Promise<StdioService<Session>> {
  if (typeof server?.connect !== "function" || typeof server.summary !== "function") {
    throw new TypeError("serveStdio needs a server with connect(transport) and summary(), such as one from @proto/mcp-server.");
  }
  const stderr = options.stderr ?? process.stderr;
  const stdout = options.stdout ?? process.stdout;
  const ownStdio = (options.stdin ?? process.stdin) === process.stdin && stdout === process.stdout;
  const restore = options.redirectConsole === false ? () => {} : redirectConsoleToStderr(stderr);
  const trace = options.trace ?? process.env.PROTO_MCP_TRACE === "1";
  const logger = resolveLogger(options.logger, stderr, trace);
  const transport = createStdioServerTransport({ ...options, logger });
  if (logger) server.fallbackLogger?.(logger);
  let session: Session;
  try {
    session = await server.connect(trace && logger ? traceTransport(transport, logger, "stdio") : transport);
  } catch (error) {
    restore();
    await transport.close(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  const stdin = (options.stdin ?? process.stdin) as { readonly isTTY?: boolean };
  if (options.banner ?? stdin.isTTY === true) stderr.write(formatBanner(server.summary()));
  void transport.closed.then((reason) => {
    restore();
    if (options.exitOnClose ?? ownStdio) exitWhenFlushed(stdout, reason === undefined ? 0 : 1);
  });
  return { session, transport, closed: transport.closed, close: (reason) => transport.close(reason) };
}

function exitWhenFlushed(stdout: Writable, code: number): void {
  // Let close handlers of the session run first, then wait for stdout to take what was queued.
  setImmediate(() => {
    if (stdout.destroyed || stdout.writableEnded) process.exit(code);
    else stdout.write("", () => process.exit(code));
  });
}

/** The logger in force: the one given, none for `false`, else one on `stderr` (debug when tracing). */
function resolveLogger(given: Logger | false | undefined, stderr: Writable, trace: boolean): Logger | undefined {
  if (given === false) return undefined;
  if (given !== undefined) return given;
  const fromEnv = process.env.PROTO_MCP_LOG_LEVEL;
  const level: LogLevel = trace ? "debug" : isLogLevel(fromEnv) ? fromEnv : "info";
  return createStreamLogger(stderr, { level, name: "mcp" });
}
