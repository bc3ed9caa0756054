/**
 * The live sessions of one handler: lookup by id, idle eviction after a TTL (checked on every
 * lookup and by a periodic sweep), and a cap on how many may live at once. When the cap is
 * reached, the fair-share policy makes room instead of locking everyone out: it evicts the least
 * recently used session, without a request in flight, of the holder (principal, or anonymous
 * address group) that holds the most sessions, so a flood costs the flooder its own sessions.
 * The clock is injectable so tests move time instead of sleeping.
 */
import { HttpServerError, HttpFaultCode } from "./errors";
import type { Session } from "./session";
import { every } from "./timers";

/** Options of the registry. */
export interface RegistryOptions {
  /** Idle time after which a session that is not busy is closed. */
  readonly idleTtlMs: number;
  /** Most sessions alive at once. */
  readonly maxSessions: number;
  /** At the cap, evict by fair share (true) or refuse new sessions (false). */
  readonly evictWhenFull: boolean;
  readonly now: () => number;
  /** Interval of the background sweep; 0 disables it (lookups still expire sessions). */
  readonly sweepMs: number;
}

/** The registry. */
export interface SessionRegistry {
  /** The live session with this id; an expired one is closed and reported missing. */
  get(id: string): Session | undefined;
  /** True when a new session may be created now: expired ones are swept first, then (with `evictWhenFull`) one is evicted by fair share. */
  makeRoom(): boolean;
  /** Live sessions of this holder (`Session.holder`). */
  countOf(holder: string): number;
  add(session: Session): void;
  /** Forgets a session (it closed). */
  remove(session: Session): void;
  /** Closes every expired session; returns how many. */
  sweep(): number;
  readonly size: number;
  /** Closes every session and stops the sweep. */
  closeAll(reason: Error): Promise<void>;
}

/** Creates a registry. */
export function createSessionRegistry(options: RegistryOptions): SessionRegistry {
  const sessions = new Map<string, Session>();
  const perHolder = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  function forget(session: Session): void {
    if (session.id === undefined || sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    const count = (perHolder.get(session.holder) ?? 1) - 1;
    if (count <= 0) perHolder.delete(session.holder);
    else perHolder.set(session.holder, count);
  }

  function expired(session: Session): boolean {
    return !session.busy && options.now() - session.lastSeen > options.idleTtlMs;
  }

  function expire(session: Session): void {
    forget(session);
    void session.close(new HttpServerError(HttpFaultCode.SessionExpired, `session idle for more than ${options.idleTtlMs} ms`));
  }

  /** The least recently used session without a request in flight of the biggest holder (O(n), only at the cap). */
  function victim(): Session | undefined {
    let best: Session | undefined;
    let bestCount = 0;
    for (const session of sessions.values()) {
      if (session.pending) continue;
      const count = perHolder.get(session.holder) ?? 0;
      if (!best || count > bestCount || (count === bestCount && session.lastSeen < best.lastSeen)) {
        best = session;
        bestCount = count;
      }
    }
    return best;
  }

  function sweep(): number {
    let count = 0;
    for (const session of [...sessions.values()]) {
      if (!expired(session)) continue;
      expire(session);
      count += 1;
    }
    return count;
  }

  return {
    get(id) {
      const session = sessions.get(id);
      if (!session) return undefined;
      if (session.isClosed) {
        forget(session);
        return undefined;
      }
      if (expired(session)) {
        expire(session);
        return undefined;
      }
      return session;
    },
    makeRoom() {
      if (sessions.size < options.maxSessions) return true;
      sweep();
      if (sessions.size < options.maxSessions) return true;
      const evicted = options.evictWhenFull ? victim() : undefined;
      if (!evicted) return false;
      forget(evicted);
      void evicted.close(new HttpServerError(HttpFaultCode.SessionEvicted, `evicted to make room: ${options.maxSessions} sessions were live (maxSessions) and its holder had the most`));
      return true;
    },
    add(session) {
      if (session.id === undefined) throw new TypeError("a registered session needs an id");
      sessions.set(session.id, session);
      perHolder.set(session.holder, (perHolder.get(session.holder) ?? 0) + 1);
      if (timer === undefined && options.sweepMs > 0) timer = every(options.sweepMs, sweep);
    },
    remove(session) {
      forget(session);
    },
    countOf: (holder) => perHolder.get(holder) ?? 0,
    sweep,
    get size() {
      return sessions.size;
    },
    async closeAll(reason) {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      const all = [...sessions.values()];
      sessions.clear();
      perHolder.clear();
      await Promise.all(all.map((session) => session.close(reason)));
    },
  };
}
