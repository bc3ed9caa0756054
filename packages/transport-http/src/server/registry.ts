/**
 * The live sessions of one handler: lookup by id, idle eviction after a TTL (checked on every
 * lookup and by a periodic sweep), and a cap on how many may live at once. The clock is
 * injectable so tests move time instead of sleeping.
 */
import { HttpServerError, HttpServerFault } from "./errors";
import type { Session } from "./session";
import { every } from "./timers";

/** Options of the registry. */
export interface RegistryOptions {
  /** Idle time after which a session that is not busy is closed. */
  readonly idleTtlMs: number;
  /** Most sessions alive at once. */
  readonly maxSessions: number;
  readonly now: () => number;
  /** Interval of the background sweep; 0 disables it (lookups still expire sessions). */
  readonly sweepMs: number;
}

/** The registry. */
export interface SessionRegistry {
  /** The live session with this id; an expired one is closed and reported missing. */
  get(id: string): Session | undefined;
  /** True when a new session may be created now (expired ones are swept first). */
  hasRoom(): boolean;
  /** Live sessions opened by this principal key. */
  countOf(principalKey: string): number;
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
  const perPrincipal = new Map<string, number>();
  let timer: ReturnType<typeof setInterval> | undefined;

  function forget(session: Session): void {
    if (session.id === undefined || sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    const count = (perPrincipal.get(session.principalKey) ?? 1) - 1;
    if (count <= 0) perPrincipal.delete(session.principalKey);
    else perPrincipal.set(session.principalKey, count);
  }

  function expired(session: Session): boolean {
    return !session.busy && options.now() - session.lastSeen > options.idleTtlMs;
  }

  function expire(session: Session): void {
    forget(session);
    void session.close(new HttpServerError(HttpServerFault.SessionExpired, `session idle for more than ${options.idleTtlMs} ms`));
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
    hasRoom() {
      if (sessions.size < options.maxSessions) return true;
      sweep();
      return sessions.size < options.maxSessions;
    },
    add(session) {
      if (session.id === undefined) throw new TypeError("a registered session needs an id");
      sessions.set(session.id, session);
      perPrincipal.set(session.principalKey, (perPrincipal.get(session.principalKey) ?? 0) + 1);
      if (timer === undefined && options.sweepMs > 0) timer = every(options.sweepMs, sweep);
    },
    remove(session) {
      forget(session);
    },
    countOf: (principalKey) => perPrincipal.get(principalKey) ?? 0,
    sweep,
    get size() {
      return sessions.size;
    },
    async closeAll(reason) {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
      const all = [...sessions.values()];
      sessions.clear();
      perPrincipal.clear();
      await Promise.all(all.map((session) => session.close(reason)));
    },
  };
}
