/**
 * Resumability storage (MCP 2025-11-25 transports, "Resumability and Redelivery"): every SSE
 * event the server sends is appended to an `EventStore` under its stream's id, and a GET with
 * `Last-Event-ID` replays what came after that id on that stream only.
 */
import type { JsonRpcMessage } from "@proto/jsonrpc";

/** A value or a promise of it: in-memory stores answer synchronously, remote ones need not. */
export type MaybePromise<T> = T | Promise<T>;

/** One stored event. */
export interface StoredEvent {
  /** The event id sent in the SSE `id:` field. */
  readonly id: string;
  /** The message the event carried. */
  readonly message: JsonRpcMessage;
}

/** What a replay found: the stream the id belongs to and the events after it, in order. */
export interface EventReplay {
  readonly streamId: string;
  readonly events: readonly StoredEvent[];
}

/**
 * Where SSE events are kept for replay. Implement it over Redis or a database to resume across
 * restarts; `createMemoryEventStore` is the bounded in-process one. The handler calls `append` in
 * stream order and never concurrently for one stream.
 */
export interface EventStore {
  /**
   * Stores one event of `streamId` and returns its id, unique across every stream of the store
   * and free of line breaks. `undefined` stores a marker (the priming event) that replays as nothing.
   */
  append(streamId: string, message: JsonRpcMessage | undefined): MaybePromise<string>;
  /**
   * The events after `lastEventId` on its stream, oldest first. Must return undefined when the id
   * is unknown or when events after it were evicted: a client must never resume over a silent gap.
   */
  replay(lastEventId: string): MaybePromise<EventReplay | undefined>;
  /** Forgets whole streams (their session ended). */
  forget(streamIds: readonly string[]): MaybePromise<void>;
}

/** Options of `createMemoryEventStore`. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped (a resume from before them is refused). Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Events kept in total; least recently written streams are dropped whole beyond it. Default 10,000. */
  readonly maxEvents?: number;
}

interface StreamLog {
  /** Sequence number of every event still held, ascending; `seqs[head]` is the oldest. */
  seqs: number[];
  events: (JsonRpcMessage | undefined)[];
  head: number;
  /** Sequence number of the newest dropped event of this stream (-1: none dropped). */
  dropped: number;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`${name} must be a positive integer, got ${String(value)}`);
  return value;
}

/** Index of `seq` in `seqs[from..]`, or -1. */
function find(seqs: readonly number[], from: number, seq: number): number {
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

/**
 * A bounded in-memory `EventStore`: event ids are `<streamId>:<sequence>` with one sequence for
 * the whole store (an id is never issued twice, even for a stream dropped and written again).
 * Each stream keeps its newest `maxEventsPerStream` events and the store its newest `maxEvents`;
 * memory never grows past those caps, whatever clients do.
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): EventStore {
  const perStream = positive(options.maxEventsPerStream, 1_000, "maxEventsPerStream");
  const total = positive(options.maxEvents, 10_000, "maxEvents");
  const streams = new Map<string, StreamLog>();
  let count = 0;
  let next = 0;

  function size(log: StreamLog): number {
    return log.seqs.length - log.head;
  }

  function dropOldest(log: StreamLog): void {
    log.dropped = log.seqs[log.head] as number;
    log.events[log.head] = undefined;
    log.head += 1;
    count -= 1;
    if (log.head > 64 && log.head * 2 > log.seqs.length) {
      log.seqs = log.seqs.slice(log.head);
      log.events = log.events.slice(log.head);
      log.head = 0;
    }
  }

  /** Drops least recently written streams, then (if the current one alone is too big) its oldest events. */
  function evict(current: StreamLog): void {
    for (const [id, log] of streams) {
      if (count <= total) return;
      if (log === current) continue;
      count -= size(log);
      streams.delete(id);
    }
    while (count > total) dropOldest(current);
  }

  return {
    append(streamId, message) {
      let log = streams.get(streamId);
      if (log) streams.delete(streamId);
      else log = { seqs: [], events: [], head: 0, dropped: -1 };
      streams.set(streamId, log); // most recently written last: eviction walks oldest first
      const seq = next++;
      log.seqs.push(seq);
      log.events.push(message);
      count += 1;
      if (size(log) > perStream) dropOldest(log);
      if (count > total) evict(log);
      return `${streamId}:${seq}`;
    },
    replay(lastEventId) {
      const at = lastEventId.lastIndexOf(":");
      if (at <= 0) return undefined;
      const streamId = lastEventId.slice(0, at);
      const digits = lastEventId.slice(at + 1);
      if (!/^\d{1,15}$/.test(digits)) return undefined;
      const seq = Number(digits);
      const log = streams.get(streamId);
      if (!log) return undefined;
      let start: number;
      if (seq === log.dropped) start = log.head;
      else {
        const index = find(log.seqs, log.head, seq);
        if (index < 0) return undefined; // never issued on this stream, or events after it were dropped
        start = index + 1;
      }
      const events: StoredEvent[] = [];
      for (let i = start; i < log.seqs.length; i += 1) {
        const message = log.events[i];
        if (message !== undefined) events.push({ id: `${streamId}:${log.seqs[i] as number}`, message });
      }
      return { streamId, events };
    },
    forget(streamIds) {
      for (const id of streamIds) {
        const log = streams.get(id);
        if (!log) continue;
        count -= size(log);
        streams.delete(id);
      }
    },
  };
}
