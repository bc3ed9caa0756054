/**
 * Serialised, backpressure-aware writes of whole lines to a Node `Writable`. Each frame is
 * one `write` call, so frames never interleave; while the stream is above its high-water mark
 * (`write` returned false) later frames wait in order for `drain`.
 */
import type { Writable } from "node:stream";
import { FaultCode, TransportError } from "@proto/jsonrpc";

/** The writer of one stream. */
export interface WriteQueue {
  /** Writes one line; resolves when the stream has accepted it, rejects with `WRITE_FAILED`. */
  write(line: string): Promise<void>;
  /** Hands every waiting line to the stream at once (a graceful close); later writes reject. */
  flush(): void;
  /** Rejects every waiting line with `reason`; later writes reject. */
  abort(reason: Error): void;
  /** Lines waiting for `drain`. */
  readonly waiting: number;
}

interface Waiting {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

function writeFailed(what: string, cause: unknown): TransportError {
  const detail = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? cause.name}: ${cause.message}` : String(cause);
  return new TransportError(FaultCode.WriteFailed, `Writing to ${what} failed (${detail}); the other side has probably gone.`, {
    cause,
  });
}

/**
 * Creates the writer of `stream`. `what` names the stream in errors ("stdout", "the child's stdin").
 * The caller owns the stream's `error` event; a failed write only rejects its own promise here.
 */
export function createWriteQueue(stream: Writable, what: string): WriteQueue {
  const queue: Waiting[] = [];
  let blocked = false;
  let stopped: Error | undefined;

  function put(item: Waiting): void {
    const ok = stream.write(item.line, (error) => {
      if (error) item.reject(writeFailed(what, error));
      else item.resolve();
    });
    if (!ok && !blocked) {
      blocked = true;
      stream.once("drain", release);
    }
  }

  function release(): void {
    blocked = false;
    while (queue.length > 0 && !blocked) put(queue.shift() as Waiting);
  }

  return {
    write(line) {
      if (stopped) return Promise.reject(stopped);
      if (stream.destroyed || stream.writableEnded) {
        return Promise.reject(writeFailed(what, new Error("the stream is closed")));
      }
      return new Promise<void>((resolve, reject) => {
        const item = { line, resolve, reject };
        if (blocked || queue.length > 0) queue.push(item);
        else put(item);
      });
    },
    flush() {
      stopped ??= new TransportError(FaultCode.Closed, "The transport is closed.");
      stream.off("drain", release);
      blocked = false;
      for (const item of queue.splice(0)) {
        if (stream.destroyed) item.reject(writeFailed(what, new Error("the stream is closed")));
        else put(item);
      }
    },
    abort(reason) {
      stopped ??= reason;
      stream.off("drain", release);
      for (const item of queue.splice(0)) item.reject(reason);
    },
    get waiting() {
      return queue.length;
    },
  };
}
