/**
 * Reads newline-framed JSON-RPC from a Node `Readable` and hands each frame to a sink through
 * `deliverFrame`, the way every transport does, so refused frames and invalid batch elements
 * are answered identically everywhere.
 */
import type { Readable } from "node:stream";
import { deliverFrame } from "@proto/jsonrpc";
import type { Exchange, Logger, TransportSink } from "@proto/jsonrpc";
import { guardErrors } from "./error-guard";
import type { LineDecoder, LineEvent } from "./line-decoder";

/** What `readLines` reports besides frames. */
export interface ReadLinesHandlers {
  /** The sink that receives frames and recoverable faults. Looked up per frame, so it may change. */
  readonly sink: () => TransportSink | undefined;
  /** The exchange every frame is delivered with (one stream, one way back). */
  readonly exchange: Exchange;
  /** Optional: called before each frame is handed to `deliverFrame` (which finishes it, or its sink does). */
  readonly delivered?: () => void;
  /** The stream ended (EOF), after its last line was delivered. */
  readonly end: () => void;
  /** The stream failed. */
  readonly error: (error: Error) => void;
  /** Receives a sink's own throw, which must not unwind into the stream. */
  readonly logger: Logger | undefined;
}

/** A running reader. */
export interface LineReader {
  /** Stops reading: removes every listener and pauses the stream. Idempotent. */
  stop(): void;
}

const encoder = new TextEncoder();

/** Starts reading `stream` line by line through `decoder`. The caller owns the stream; `stop` only detaches. */
export function readLines(stream: Readable, decoder: LineDecoder, handlers: ReadLinesHandlers): LineReader {
  let stopped = false;

  function deliver(events: LineEvent[]): void {
    for (const event of events) {
      const sink = handlers.sink();
      if (stopped || sink === undefined) return;
      try {
        if (event.type === "frame") {
          handlers.delivered?.();
          deliverFrame(event.result, sink, handlers.exchange);
        }
        else sink.error(event.error);
      } catch (error) {
        handlers.logger?.error("A transport sink threw while receiving a frame; the frame was dropped.", error);
      }
    }
  }

  const onData = (chunk: Uint8Array | string): void => {
    deliver(decoder.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk));
  };
  let ended = false;
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    deliver(decoder.end());
    if (!stopped) handlers.end();
  };
  // A stream destroyed without an error emits 'close' and never 'end': it ended all the same.
  const onClose = (): void => {
    if (!ended && !stopped) onEnd();
  };
  const onError = (error: Error): void => {
    if (!stopped) handlers.error(error);
  };

  stream.on("data", onData);
  stream.on("end", onEnd);
  stream.on("close", onClose);
  stream.on("error", onError);

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("close", onClose);
      stream.off("error", onError);
      // Keep a listener: an 'error' with none would crash the process (one per stream, shared).
      guardErrors(stream);
      stream.pause();
    },
  };
}
