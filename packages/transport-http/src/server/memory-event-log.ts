/**
 * The bookkeeping of the in-memory event store (`memory-event-store.ts`): the log of each stream,
 * the owner (session) its streams count against, and the small helpers over them.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";

/** Whose streams count together at eviction: for the handler, one session. */
export interface Owner {
  readonly name: string;
  bytes: number;
  /** The owner's streams, least recently written first. */
  readonly logs: Map<string, StreamLog>;
  /** The stream written last (already last in `logs`: a second event of it reorders nothing). */
  newest: StreamLog | undefined;
}

/** The events held for one stream, oldest first from `head`. */
export interface StreamLog {
  /** Sequence number of every event still held, ascending; `seqs[head]` is the oldest. */
  seqs: number[];
  events: (JsonRpcMessage | undefined)[];
  sizes: number[];
  head: number;
  /** Sequence number of the newest dropped event of this stream (-1: none dropped). */
  dropped: number;
  readonly owner: Owner;
}

/** The owner of a stream: its id up to the last `.` (the handler names streams `<session prefix>.<n>`). */
export function ownerOf(streamId: string): string {
  const dot = streamId.lastIndexOf(".");
  return dot < 0 ? streamId : streamId.slice(0, dot);
}

/** `value`, or `fallback` when undefined; a TypeError naming the option when it is not a positive integer. */
export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Index of `seq` in `seqs[from..]`, or -1. */
export function find(seqs: readonly number[], from: number, seq: number): number {
  let low = from;
  let high = seqs.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const value = seqs[mid] as number;
    if (value === seq) return mid;
    if (value < seq) low = mid + 1;
    else high = mid - 1;
  }
  return -1;
}
