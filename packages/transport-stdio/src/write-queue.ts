/**
 * Serialised, coalesced, backpressure-aware writes of whole lines to a Node `Writable`.
 * Lines written in the same tick go out in one `write` (one syscall instead of one per frame:
 * this is most of the transport's throughput); frames are never split, so they never
 * interleave. While the stream is above its high-water mark (`write` returned false), later
 * lines wait, in order, for `drain`.
 */
import type { Writable } from "node:stream";
import { JsonRpcFaultCode, TransportError } from "@proto/jsonrpc";

/** The writer of one stream. */
export interface WriteQueue {
  /** Queues one line; resolves when the stream has taken it, rejects with `WRITE_FAILED`. */
  write(line: string): Promise<void>;
  /** Hands every waiting line to the stream now, ignoring backpressure (a graceful close); later writes reject. */
  flush(): void;
  /** Rejects every waiting line with `reason`; later writes reject with it. */
  abort(reason: Error): void;
  /** Lines not yet handed to the stream. */
  readonly waiting: number;
}

interface Waiting {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

// Coalescing stops at this many UTF-16 units per write, so a backlog never becomes one giant string.
const MAX_WRITE_UNITS = 1024 * 1024;

function writeFailed(what: string, cause: unknown): TransportError {
  const detail = cause instanceof Error ? `${(cause as NodeJS.ErrnoException).code ?? cause.name}: ${cause.message}` : String(cause);
  return new TransportError(JsonRpcFaultCode.WriteFailed, `Writing to ${what} failed (${detail}); the other side has probably gone.`, {
    cause,
  });
}

/**
 * Creates the writer of `stream`. `what` names the stream in errors ("stdout", "the server's
 * stdin"). The caller owns the stream and its `error` event; a failed write rejects its lines.
 */
export function createWriteQueue(stream: Writable, what: string): WriteQueue {
  let queue: Waiting[] = [];
  let scheduled = false;
  let blocked = false;
  let stopped: Error | undefined;

  function put(items: Waiting[]): void {
    const text = items.length === 1 ? (items[0] as Waiting).line : items.map((item) => item.line).join("");
    const ok = stream.write(text, (error) => {
      if (error) for (const item of items) item.reject(writeFailed(what, error));
      else for (const item of items) item.resolve();
    });
    if (!ok && !blocked) {
      blocked = true;
      stream.once("drain", release);
    }
  }

  function take(): Waiting[] {
    let units = 0;
    let count = 0;
    while (count < queue.length && (count === 0 || units < MAX_WRITE_UNITS)) units += (queue[count++] as Waiting).line.length;
    const items = count === queue.length ? queue : queue.slice(0, count);
    queue = count === queue.length ? [] : queue.slice(count);
    return items;
  }

  function pump(): void {
    scheduled = false;
    while (queue.length > 0 && !blocked && stopped === undefined) put(take());
  }

  function release(): void {
    blocked = false;
    pump();
  }

  return {
    write(line) {
      if (stopped) return Promise.reject(stopped);
      if (stream.destroyed || stream.writableEnded) return Promise.reject(writeFailed(what, new Error("the stream is closed")));
      return new Promise<void>((resolve, reject) => {
        queue.push({ line, resolve, reject });
        if (!scheduled && !blocked) {
          scheduled = true;
          // After the current microtasks: replies produced by one inbound chunk share a write.
          process.nextTick(pump);
        }
      });
    },
    flush() {
      stopped ??= new TransportError(JsonRpcFaultCode.Closed, "The transport is closed.");
      stream.off("drain", release);
      blocked = false;
      while (queue.length > 0) {
        const items = take();
        if (stream.destroyed) for (const item of items) item.reject(writeFailed(what, new Error("the stream is closed")));
        else put(items);
      }
    },
    abort(reason) {
      stopped ??= reason;
      stream.off("drain", release);
      for (const item of queue) item.reject(reason);
      queue = [];
    },
    get waiting() {
      return queue.length;
    },
  };
}
