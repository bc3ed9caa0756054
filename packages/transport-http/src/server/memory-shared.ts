/**
 * In-process implementations of the shared seams (`SessionStore`, `MessageBus`): several handlers
 * in one process share them as instances share Redis. For tests and for checking a store against
 * the contract; a real deployment uses a store every instance reaches (`@proto/redis-stores`).
 */
import type { MessageBus, SessionCreateResult, SessionLimits, SessionRecord, SessionStore } from "./shared-store";

/** A `SessionStore` in memory, with an injectable clock (ms) for expiry. */
export function createMemorySessionStore(now: () => number = Date.now): SessionStore & { readonly size: number } {
  const records = new Map<string, { record: SessionRecord; expires: number; ttlMs: number }>();
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
      records.set(record.id, { record, expires: now() + limits.ttlMs, ttlMs: limits.ttlMs });
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
      if (entry !== undefined) entry.record = { ...entry.record, ...patch };
    },
    delete(id) {
      records.delete(id);
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
  return {
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
