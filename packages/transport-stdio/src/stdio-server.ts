/**
 * The server side of the MCP stdio transport (spec 2025-11-25, "Transports > stdio"): frames
 * are read from stdin and written to stdout, one JSON-RPC payload per line; stdout carries
 * nothing else. The transport closes when stdin ends, so a server whose host died exits.
 */
import type { Readable, Writable } from "node:stream";
import { JsonRpcFaultCode, TransportError } from "@proto/jsonrpc";
import type { DecodeLimits, Exchange, JsonRpcPayload, Logger, Transport, TransportSink } from "@proto/jsonrpc";
import { guardErrors } from "./error-guard";
import { createLineDecoder } from "./line-decoder";
import { encodeLine } from "./line-encoder";
import { readLines } from "./read-lines";
import type { LineReader } from "./read-lines";
import { createWriteQueue } from "./write-queue";

/** Options of `createStdioServerTransport`. */
export interface StdioServerTransportOptions {
  /** Where frames are read from. Default `process.stdin`. The transport never destroys it. */
  readonly stdin?: Readable;
  /** Where frames are written. Default `process.stdout`. The transport never ends or destroys it. */
  readonly stdout?: Writable;
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
   * Once stdin has ended, how long (ms) requests already received may still be answered before
   * the transport closes anyway. It closes at once when none is outstanding. Default 5,000.
   */
  readonly endGraceMs?: number;
  /** Receives a sink's own throw (a bug above the transport). Default: discard. */
  readonly logger?: Logger;
}

/** A stdio server transport: a `Transport` plus what only stdio knows. */
export interface StdioServerTransport extends Transport {
  /** Resolves once the transport is closed, with the fault that closed it, if any. */
  readonly closed: Promise<Error | undefined>;
  /** Bytes held for an unfinished inbound line (never above `maxLineBytes`). */
  readonly bufferedBytes: number;
}

function checkGrace(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a number of milliseconds >= 0, got ${String(value)}`);
  return value;
}

/**
 * Creates the server transport over a Readable/Writable pair (default: this process's stdin
 * and stdout). Frames are written whole and in order (those of one tick share one `write`),
 * and wait for `drain` under backpressure. It closes when stdin ends (after answering what it already received, within
 * `endGraceMs`), when stdin or stdout fails (EPIPE: the host is gone), or on `close()`. Closing
 * stops reading and hands already-queued frames to stdout; the streams stay open, so the
 * process exits once nothing else keeps it alive.
 */
export function createStdioServerTransport(options: StdioServerTransportOptions = {}): StdioServerTransport {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const decoder = createLineDecoder({ maxLineBytes: options.maxLineBytes, limits: options.limits });
  const endGraceMs = checkGrace(options.endGraceMs, "endGraceMs", 5_000);
  const queue = createWriteQueue(stdout, "stdout");
  const aborter = new AbortController();
  // frames delivered and not yet finished by the sink (the Peer says when a frame owes nothing)
  let owed = 0;
  let sink: TransportSink | undefined;
  let reader: LineReader | undefined;
  let done = false;
  let inputEnded = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let resolveClosed!: (reason: Error | undefined) => void;
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));

  function write(payload: JsonRpcPayload): Promise<void> {
    if (done) return Promise.reject(new TransportError(JsonRpcFaultCode.Closed, "The stdio transport is closed."));
    let line: string;
    try {
      line = encodeLine(payload);
    } catch (error) {
      return Promise.reject(error);
    }
    return queue.write(line);
  }

  // one exchange for every frame (one stream, one way back); `finish` counts frames, not ids
  const exchange: Exchange = {
    reply: write,
    signal: aborter.signal,
    info: { transport: "stdio" },
    finish() {
      if (owed > 0) owed--;
      // after the write queue has taken this tick's frames, so closing flushes them
      if (inputEnded && owed === 0) queueMicrotask(() => void close());
    },
  };

  function onInputEnd(): void {
    inputEnded = true;
    if (owed === 0) void close();
    else graceTimer = setTimeout(() => void close(), endGraceMs).unref();
  }

  const onStdoutError = (error: Error): void => {
    void close(new TransportError(JsonRpcFaultCode.WriteFailed, `stdout failed (${(error as NodeJS.ErrnoException).code ?? error.message}): the host is gone.`, { cause: error }));
  };

  async function close(reason?: Error): Promise<void> {
    if (done) return;
    done = true;
    clearTimeout(graceTimer);
    reader?.stop();
    if (reason) queue.abort(reason);
    else queue.flush();
    stdout.off("error", onStdoutError);
    // A late EPIPE from a flushed frame must not become an uncaught 'error' event.
    guardErrors(stdout);
    aborter.abort(reason ?? new TransportError(JsonRpcFaultCode.Closed, "The stdio transport is closed."));
    const target = sink;
    sink = undefined;
    resolveClosed(reason);
    target?.closed(reason);
  }

  return {
    async start(target) {
      if (sink !== undefined || reader !== undefined) throw new TypeError("start() was already called: a transport has one consumer.");
      if (done) throw new TypeError("The stdio transport is closed; create a new one.");
      sink = target;
      stdout.on("error", onStdoutError);
      reader = readLines(stdin, decoder, {
        sink: () => sink,
        exchange,
        delivered: () => void owed++,
        end: onInputEnd,
        error: (error) => void close(new TransportError(JsonRpcFaultCode.Closed, `stdin failed: ${error.message}`, { cause: error })),
        logger: options.logger,
      });
    },
    send: write,
    close,
    closed,
    get bufferedBytes() {
      return decoder.bufferedBytes;
    },
  };
}
