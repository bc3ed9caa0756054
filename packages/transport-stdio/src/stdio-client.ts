/**
 * The client side of the MCP stdio transport (spec 2025-11-25, "Transports > stdio" and
 * "Lifecycle > Shutdown > stdio"): spawns the server as a child process, writes frames to its
 * stdin, reads frames from its stdout, and keeps the tail of its stderr to explain a crash.
 */
import type { ChildProcess } from "node:child_process";
import type { Readable } from "node:stream";
import { JsonRpcFaultCode, TransportError } from "@proto/jsonrpc";
import type { Exchange, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { resolveClientOptions } from "./client-options";
import type { StdioClientTransportOptions } from "./client-options";
import { createExitWatch } from "./exit-watch";
import type { ExitStatus, ExitWatch } from "./exit-watch";
import { createLineDecoder } from "./line-decoder";
import { encodeLine } from "./line-encoder";
import { exitedError, spawnError } from "./process-error";
import { readLines } from "./read-lines";
import type { LineReader } from "./read-lines";
import { spawnChild, spawned } from "./spawn-child";
import { createStderrTail } from "./stderr-tail";
import { createWriteQueue } from "./write-queue";
import type { WriteQueue } from "./write-queue";

/** A stdio client transport: a `Transport` plus what only a child process has. */
export interface StdioClientTransport extends Transport {
  /** The child's process id once started, else undefined. */
  readonly pid: number | undefined;
  /** The child's stderr stream when `stderr: "pipe"`, else null. */
  readonly stderr: Readable | null;
  /** How the child ended (`code` or `signal`), once it has exited; undefined before. */
  readonly exitStatus: ExitStatus | undefined;
  /** The last lines the child wrote to stderr, oldest first (empty when inherited). */
  stderrTail(): readonly string[];
  /** Resolves once the transport is closed and the child is gone, with the fault, if any. */
  readonly closed: Promise<Error | undefined>;
  /** Bytes held for an unfinished inbound line (never above `maxLineBytes`). */
  readonly bufferedBytes: number;
  /** The command line (`command` and `args` joined by spaces): a client remembers what it learned about the server under it. */
  readonly serverKey: string;
}

/**
 * Creates a client transport that spawns an MCP server. `start()` spawns it and resolves once
 * it runs (rejects with `SPAWN_FAILED` when it cannot: ENOENT, EACCES). `close()` ends the
 * child's stdin, sends SIGTERM after `exitGraceMs`, SIGKILL after `killGraceMs`, and resolves
 * once the child is gone. If the child exits on its own, the transport closes with a
 * `PROCESS_EXITED` error carrying its exit code or signal and its last stderr lines.
 */
export function createStdioClientTransport(options: StdioClientTransportOptions): StdioClientTransport {
  const { display, commandLine, stderr: stderrMode, stderrTailLines, grace, decoder: decoderOptions } = resolveClientOptions(options);
  const tail = createStderrTail(stderrTailLines);
  const lineDecoder = createLineDecoder(decoderOptions);
  const aborter = new AbortController();
  let child: ChildProcess | undefined;
  let sink: TransportSink | undefined;
  let reader: LineReader | undefined;
  let queue: WriteQueue | undefined;
  let watch: ExitWatch | undefined;
  let started = false;
  let closing = false;
  let closeReason: Error | undefined;
  let done = false;
  let resolveClosed!: (reason: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  const closedError = (): TransportError => new TransportError(JsonRpcFaultCode.Closed, "The stdio transport is closed.");

  function finish(reason: Error | undefined): void {
    if (done) return;
    done = true;
    watch?.dispose();
    reader?.stop();
    queue?.abort(reason ?? closedError());
    aborter.abort(reason ?? closedError());
    const target = sink;
    sink = undefined;
    resolveClosed(reason);
    target?.closed(reason);
  }

  function write(payload: JsonRpcPayload): Promise<void> {
    if (done || closing || queue === undefined) {
      return Promise.reject(queue === undefined && !done ? new TypeError("Call start() before sending.") : closedError());
    }
    try {
      return queue.write(encodeLine(payload));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  const exchange: Exchange = { reply: write, signal: aborter.signal, info: { transport: "stdio" } };

  function attach(proc: ChildProcess): void {
    const stdin = proc.stdin as NonNullable<ChildProcess["stdin"]>;
    stdin.on("error", () => {}); // EPIPE after a crash: the write's promise rejects, the exit explains.
    queue = createWriteQueue(stdin, "the server's stdin");
    proc.stderr?.on("data", (chunk: Uint8Array) => tail.push(chunk));
    watch = createExitWatch(proc, grace, options.logger, () =>
      finish(closing ? closeReason : exitedError(display, watch?.exit ?? { code: null, signal: null }, tail.lines(), stderrMode === "inherit")),
      options.processGroup === true && process.platform !== "win32",
    );
    reader = readLines(proc.stdout as Readable, lineDecoder, {
      sink: () => (closing ? undefined : sink),
      exchange,
      // The child closed its stdout: nothing more can arrive. It gets the grace to exit.
      end: () => watch?.escalate(),
      error: (error) => options.logger?.warn("Reading the server's stdout failed.", error),
      logger: options.logger,
    });
  }

  async function start(target: TransportSink): Promise<void> {
    if (started) throw new TypeError("start() was already called: a transport has one consumer.");
    if (done) throw new TypeError("The stdio transport is closed; create a new one.");
    started = true;
    sink = target;
    try {
      const proc = spawnChild(options, stderrMode);
      child = proc;
      attach(proc);
      await spawned(proc);
    } catch (error) {
      const failure = spawnError(display, error);
      finish(failure);
      throw failure;
    }
  }

  async function close(reason?: Error): Promise<void> {
    if (!done && (child === undefined || child.pid === undefined)) finish(reason);
    if (!done && !closing) {
      closing = true;
      closeReason = reason;
      if (reason) queue?.abort(reason);
      else queue?.flush();
      child?.stdin?.end();
      watch?.escalate();
    }
    await closed;
  }

  return {
    start,
    send: write,
    close,
    closed,
    get pid() {
      return child?.pid;
    },
    get exitStatus() {
      return watch?.exit;
    },
    get stderr() {
      return stderrMode === "pipe" ? (child?.stderr ?? null) : null;
    },
    stderrTail: () => (stderrMode === "inherit" ? [] : tail.lines()),
    get bufferedBytes() {
      return lineDecoder.bufferedBytes;
    },
    serverKey: commandLine,
  };
}
