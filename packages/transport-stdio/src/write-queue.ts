/**
 * Serialised, coalesced, backpressure-aware writes of whole lines to a Node `Writable`.
 * Lines written in the same tick go out in one `write` (one syscall instead of one per frame:
 * this is most of the transport's throughput); frames are never split, so they never
 * interleave. While the stream is above its high-water mark (`write` returned false), later
 * lines wait, in order, for `drain`.
 *
 * The lines queued until the next write share one promise (a batch): it resolves once the
 * stream has taken every line of the batch and rejects, for all of them, when one of the
 * batch's writes fails. One promise per write instead of one per line: on a busy stdio
 * connection that is a promise, its resolving functions and a record less per message.
 */
import type { Writable } from "node:stream";
import { JsonRpcFaultCode, TransportError } from "@proto/jsonrpc";

/** The writer of one stream. */
export interface WriteQueue {
  /**
   * Queues one line; resolves when the stream has taken it, rejects with `WRITE_FAILED`.
   * Lines queued in the same tick may share the returned promise.
   */
  write(line: string): Promise<void>;
  /** Hands every waiting line to the stream now, ignoring backpressure (a graceful close); later writes reject. */
  flush(): void;
  /** Rejects every waiting line with `reason`; later writes reject with it. */
  abort(reason: Error): void;
  /** Lines not yet handed to the stream. */
  readonly waiting: number;
}

// Coalescing stops at this many UTF-16 units per write, so a backlog never becomes one giant string.
const MAX_WRITE_UNITS = 1024 * 1024;

/** Lines that settle together: those queued before the writer took them. */
class Batch {
  readonly lines: string[] = [];
  /** Lines handed to the stream so far. */
  next = 0;
  /** Takes new lines until the writer starts on it. */
  open = true;
  /** Stream writes of this batch not called back yet. */
  writes = 0;
  failure: unknown = undefined;
  settled = false;
  readonly promise: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;

  constructor() {
    this.promise = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  get handed(): boolean {
    return this.next === this.lines.length;
  }
}

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
  // Batches with lines not yet handed to the stream, oldest first.
  let batches: Batch[] = [];
  let waiting = 0;
  let scheduled = false;
  let blocked = false;
  let stopped: Error | undefined;

  function settle(batch: Batch, error?: Error): void {
    if (batch.settled) return;
    batch.settled = true;
    if (error !== undefined) batch.reject(error);
    else if (batch.failure !== undefined) batch.reject(writeFailed(what, batch.failure));
    else batch.resolve();
  }

  /** Hands the next lines of `batch` (at most MAX_WRITE_UNITS, at least one line) to the stream. */
  function put(batch: Batch): void {
    const { lines } = batch;
    const from = batch.next;
    let to = from;
    let units = 0;
    while (to < lines.length && (to === from || units < MAX_WRITE_UNITS)) units += (lines[to++] as string).length;
    const text = to - from === 1 ? (lines[from] as string) : from === 0 && to === lines.length ? lines.join("") : lines.slice(from, to).join("");
    batch.next = to;
    waiting -= to - from;
    batch.writes++;
    const ok = stream.write(text, (error) => {
      batch.writes--;
      if (error) batch.failure ??= error;
      if (batch.writes === 0 && batch.handed) settle(batch);
    });
    if (!ok && !blocked) {
      blocked = true;
      stream.once("drain", release);
    }
  }

  /** Hands the head batch on, dropping it from the queue once all its lines are handed. */
  function putHead(): void {
    const batch = batches[0] as Batch;
    batch.open = false;
    put(batch);
    if (batch.handed) batches.shift();
  }

  function pump(): void {
    scheduled = false;
    while (batches.length > 0 && !blocked && stopped === undefined) putHead();
  }

  function release(): void {
    blocked = false;
    pump();
  }

  return {
    write(line) {
      if (stopped) return Promise.reject(stopped);
      if (stream.destroyed || stream.writableEnded) return Promise.reject(writeFailed(what, new Error("the stream is closed")));
      let batch = batches[batches.length - 1];
      if (batch === undefined || !batch.open) batches.push((batch = new Batch()));
      batch.lines.push(line);
      waiting++;
      if (!scheduled && !blocked) {
        scheduled = true;
        // After the current microtasks: replies produced by one inbound chunk share a write.
        process.nextTick(pump);
      }
      return batch.promise;
    },
    flush() {
      stopped ??= new TransportError(JsonRpcFaultCode.Closed, "The transport is closed.");
      stream.off("drain", release);
      blocked = false;
      while (batches.length > 0) {
        if (!stream.destroyed) {
          putHead();
          continue;
        }
        const batch = batches.shift() as Batch;
        waiting -= batch.lines.length - batch.next;
        settle(batch, writeFailed(what, new Error("the stream is closed")));
      }
    },
    abort(reason) {
      stopped ??= reason;
      stream.off("drain", release);
      // A batch part of which was handed rejects too: some of its lines will never be written.
      for (const batch of batches) settle(batch, reason);
      batches = [];
      waiting = 0;
    },
    get waiting() {
      return waiting;
    },
  };
}
