/**
 * In-process implementations of the shared seams (`SessionStore`, `MessageBus`): several handlers
 * in one process share them as instances share Redis. For tests and for checking a store against
 * the contract; a real deployment uses a store every instance reaches (`@proto/redis-stores`).
 */
import type { JournalEntry, MessageBus, RequestJournal, SessionCreateResult, SessionLimits, SessionMember, SessionRecord, SessionStore } from "./shared-store";

const holderOf = (record: SessionRecord): string => record.holder ?? record.principalKey;

/** A `SessionStore` in memory, with an injectable clock (ms) for expiry. */
export function createMemorySessionStore(now: () => number = Date.now): SessionStore & { readonly size: number } {
  const records = new Map<string, { record: SessionRecord; expires: number; ttlMs: number; topics: readonly string[] }>();
  const sweep = (): void => {
    const t = now();
    for (const [id, entry] of records) if (entry.expires <= t) records.delete(id);
  };
  return {
    create(record, limits: SessionLimits): SessionCreateResult {
      sweep();
      if (records.size >= limits.maxSessions) return "full";
      if (limits.maxSessionsPerPrincipal !== undefined) {
        let count = 0;
        for (const entry of records.values()) if (entry.record.principalKey === record.principalKey) count += 1;
        if (count >= limits.maxSessionsPerPrincipal) return "principal-full";
      }
      records.set(record.id, { record, expires: now() + limits.ttlMs, ttlMs: limits.ttlMs, topics: [] });
      return "created";
    },
    get(id, ttlMs) {
      const entry = records.get(id);
      if (entry === undefined || entry.expires <= now()) {
        records.delete(id);
        return undefined;
      }
      entry.expires = now() + ttlMs;
      return entry.record;
    },
    update(id, patch) {
      const entry = records.get(id);
      if (entry === undefined) return;
      const { topics, ...fields } = patch;
      entry.record = { ...entry.record, ...fields };
      if (topics !== undefined) entry.topics = [...topics];
    },
    members(topic, limit) {
      sweep();
      const found: SessionMember[] = [];
      for (const { record, topics } of records.values()) {
        if (found.length >= limit) break;
        if (topics.includes(topic)) found.push({ id: record.id, streamPrefix: record.streamPrefix });
      }
      return found;
    },
    delete(id) {
      records.delete(id);
    },
    evictOne() {
      sweep();
      const counts = new Map<string, number>();
      for (const { record } of records.values()) counts.set(holderOf(record), (counts.get(holderOf(record)) ?? 0) + 1);
      let victim: { id: string; count: number; expires: number } | undefined;
      for (const [id, { record, expires }] of records) {
        const count = counts.get(holderOf(record)) ?? 0;
        if (!victim || count > victim.count || (count === victim.count && expires < victim.expires)) victim = { id, count, expires };
      }
      if (victim) records.delete(victim.id);
      return victim?.id;
    },
    get size() {
      sweep();
      return records.size;
    },
  };
}

/** A `MessageBus` in memory: delivery is asynchronous (a microtask later), as over a network. */
export function createMemoryMessageBus(): MessageBus {
  const channels = new Map<string, Set<(message: string) => void>>();
  const versions = new Map<string, string>();
  return {
    announce(topic, version) {
      if (versions.get(topic) === version) return false;
      versions.set(topic, version);
      return true;
    },
    publish(channel, message) {
      const listeners = [...(channels.get(channel) ?? [])];
      queueMicrotask(() => {
        for (const listener of listeners) listener(message);
      });
      return listeners.length;
    },
    subscribe(channel, listener) {
      let set = channels.get(channel);
      if (set === undefined) channels.set(channel, (set = new Set()));
      const own = (message: string): void => listener(message);
      set.add(own);
      return () => {
        set.delete(own);
        if (set.size === 0) channels.delete(channel);
      };
    },
  };
}

/** A `RequestJournal` in memory, with an injectable clock (ms) for leases. */
export function createMemoryRequestJournal(now: () => number = Date.now): RequestJournal {
  const instances = new Map<string, { lease: number; entries: Map<string, JournalEntry> }>();
  const of = (instance: string) => {
    let found = instances.get(instance);
    if (found === undefined) instances.set(instance, (found = { lease: 0, entries: new Map() }));
    return found;
  };
  return {
    begin(instance, entry) {
      of(instance).entries.set(entry.streamId, entry);
    },
    outbound(instance, streamId, requestId) {
      const entries = instances.get(instance)?.entries;
      const entry = entries?.get(streamId);
      if (entry !== undefined) entries?.set(streamId, { ...entry, outbound: [...entry.outbound, requestId] });
    },
    end(instance, streamId) {
      instances.get(instance)?.entries.delete(streamId);
    },
    heartbeat(instance, ttlMs) {
      of(instance).lease = now() + ttlMs;
    },
    takeOver(instance) {
      const claimed: JournalEntry[] = [];
      for (const [name, held] of instances) {
        if (name === instance || held.lease > now()) continue;
        claimed.push(...held.entries.values());
        instances.delete(name);
      }
      return claimed;
    },
  };
}
