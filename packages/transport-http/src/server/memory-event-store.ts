/**
 * The bounded in-process `EventStore` (`event-store.ts` has the contract): per-stream and total
 * caps, eviction from the owner holding the most bytes.
 */
import type { EventStore, StoredEvent } from "./event-store";
import { find, ownerOf, positive } from "./memory-event-log";
import type { Owner, StreamLog } from "./memory-event-log";

/** Options of `createMemoryEventStore`. */
export interface MemoryEventStoreOptions {
  /** Events kept per stream; older ones are dropped (a resume from before them is refused). Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** Events kept in total. Default 10,000. */
  readonly maxEvents?: number;
  /** Characters of JSON kept in total (about bytes for ASCII). Default 64 MiB. */
  readonly maxBytes?: number;
}

/** Stores made by `createMemoryEventStore`: their ids are `<streamId>:<n>`, never checked again. */
const ownStores = new WeakSet<EventStore>();

/** True when `store` is an in-memory store of this package, whose event ids are known to be valid SSE ids. */
export function mintsValidIds(store: EventStore): boolean {
  return ownStores.has(store);
}

/** The in-memory store, with what it holds (for metrics and tests). */
export interface MemoryEventStore extends EventStore {
  /** Events held. */
  readonly size: number;
  /** Characters of JSON held. */
  readonly bytes: number;
}

/**
 * A bounded in-memory `EventStore`: event ids are `<streamId>:<sequence>` with one sequence for
 * the whole store (an id is never issued twice, even for a stream dropped and written again).
 * Each stream keeps its newest `maxEventsPerStream` events; past `maxEvents` or `maxBytes` in
 * total, events are dropped oldest first from the owner holding the most bytes (streams named
 * `<owner>.<n>` share an owner: for the handler, one session), so one session flooding the
 * store evicts its own events, never another's fair share. Memory never grows past the caps by
 * more than the one event being appended, whatever clients do.
 */
export function createMemoryEventStore(options: MemoryEventStoreOptions = {}): MemoryEventStore {
  const perStream = positive(options.maxEventsPerStream, 1_000, "maxEventsPerStream");
  const total = positive(options.maxEvents, 10_000, "maxEvents");
  const maxBytes = positive(options.maxBytes, 64 * 1024 * 1024, "maxBytes");
  const streams = new Map<string, StreamLog>();
  const owners = new Map<string, Owner>();
  let count = 0;
  let bytes = 0;
  let next = 0;

  function size(log: StreamLog): number {
    return log.seqs.length - log.head;
  }

  function dropOldest(log: StreamLog): void {
    const freed = log.sizes[log.head] as number;
    log.dropped = log.seqs[log.head] as number;
    log.events[log.head] = undefined;
    log.head += 1;
    count -= 1;
    bytes -= freed;
    log.owner.bytes -= freed;
    if (log.head > 64 && log.head * 2 > log.seqs.length) {
      log.seqs = log.seqs.slice(log.head);
      log.events = log.events.slice(log.head);
      log.sizes = log.sizes.slice(log.head);
      log.head = 0;
    }
  }

  function remove(id: string, log: StreamLog): void {
    while (size(log) > 0) dropOldest(log);
    streams.delete(id);
    const { owner } = log;
    owner.logs.delete(id);
    if (owner.newest === log) owner.newest = undefined;
    if (owner.logs.size > 0) return;
    owners.delete(owner.name);
    if (lastOwner === owner) lastOwner = undefined;
  }

  /** The owner holding the most bytes (the least recently written of equals). */
  function biggest(): Owner | undefined {
    let found: Owner | undefined;
    for (const owner of owners.values()) if (found === undefined || owner.bytes > found.bytes) found = owner;
    return found;
  }

  /** The owner's least recently written stream that may lose an event (not the one just appended alone); stops at the first. */
  function evictable(owner: Owner, current: StreamLog): [string, StreamLog] | undefined {
    for (const entry of owner.logs) if (entry[1] !== current || size(entry[1]) > 1) return entry;
    return undefined;
  }

  /** Drops events until the store is within its caps, never the event just appended. */
  function evict(current: StreamLog): void {
    while (count > total || bytes > maxBytes) {
      const owner = biggest();
      const entry = owner === undefined ? undefined : evictable(owner, current);
      if (entry === undefined) return;
      const [id, log] = entry;
      if (size(log) <= 1 && log !== current) remove(id, log);
      else dropOldest(log);
    }
  }

  /** The owner of the stream created last: the next new stream is usually the same session's. */
  let lastOwner: Owner | undefined;

  function ownerFor(streamId: string): Owner {
    const last = lastOwner;
    const dot = streamId.lastIndexOf(".");
    if (last !== undefined && dot === last.name.length && streamId.startsWith(last.name)) return last;
    const name = ownerOf(streamId);
    let owner = owners.get(name);
    if (!owner) {
      owner = { name, bytes: 0, logs: new Map(), newest: undefined };
      owners.set(name, owner);
    }
    lastOwner = owner;
    return owner;
  }

  function logOf(streamId: string): StreamLog {
    let log = streams.get(streamId);
    if (log) {
      const { owner } = log;
      if (owner.newest !== log) {
        owner.logs.delete(streamId);
        owner.logs.set(streamId, log); // most recently written last
        owner.newest = log;
      }
      return log;
    }
    const owner = ownerFor(streamId);
    log = { seqs: [], events: [], sizes: [], head: 0, dropped: -1, owner };
    streams.set(streamId, log);
    owner.logs.set(streamId, log);
    owner.newest = log;
    return log;
  }

  const store: MemoryEventStore = {
    append(streamId, message, encoded) {
      const log = logOf(streamId);
      const seq = next++;
      const weight = streamId.length + 16 + (message === undefined ? 0 : (encoded ?? JSON.stringify(message)).length);
      log.seqs.push(seq);
      log.events.push(message);
      log.sizes.push(weight);
      count += 1;
      bytes += weight;
      log.owner.bytes += weight;
      if (size(log) > perStream) dropOldest(log);
      if (count > total || bytes > maxBytes) evict(log);
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
        if (log) remove(id, log);
      }
    },
    get size() {
      return count;
    },
    get bytes() {
      return bytes;
    },
  };
  ownStores.add(store);
  return store;
}
