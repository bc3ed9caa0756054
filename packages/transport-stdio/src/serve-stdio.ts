/**
 * `serveStdio`: the one call that turns a server definition into a stdio MCP server process.
 * It takes any object with `connect` and `summary` (structurally; `@proto/mcp-server`'s server
 * is one), so this package does not depend on the server package.
 */
import type { Writable } from "node:stream";
import type { Transport } from "@proto/jsonrpc";
import { formatBanner } from "./banner";
import type { ServerSummary } from "./banner";
import { redirectConsoleToStderr } from "./console-redirect";
import { createStdioServerTransport } from "./stdio-server";
import type { StdioServerTransport, StdioServerTransportOptions } from "./stdio-server";

/** What `serveStdio` needs of a server: connect it to a transport, and describe it for the banner. */
export interface StdioServable<Session = unknown> {
  /** Connects one session to the transport (starting it). */
  connect(transport: Transport): Promise<Session>;
  /** Name, version, protocol version and tool names, for the banner. */
  summary(): ServerSummary;
}

/** Options of `serveStdio`: those of the server transport, plus the process-level ones. */
export interface ServeStdioOptions extends StdioServerTransportOptions {
  /** Print the start-up banner to `stderr`. Default true. */
  readonly banner?: boolean;
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
  const transport = createStdioServerTransport(options);
  let session: Session;
  try {
    session = await server.connect(transport);
  } catch (error) {
    restore();
    await transport.close(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
  if (options.banner !== false) stderr.write(formatBanner(server.summary()));
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
