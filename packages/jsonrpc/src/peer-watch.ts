/**
 * One `abort` listener per distinct exchange signal, however many handlers watch it: a
 * long-lived stream signal (stdio, WebSocket) would otherwise collect one listener per
 * running request (and Node's max-listeners warning).
 */
import type { InboundCall } from "./peer-call";
import type { JsonRpcId } from "./types";

interface Watched {
  readonly calls: Set<InboundCall>;
  readonly listener: () => void;
}

/** Tracks which running calls abort when which signal aborts. */
export function createSignalWatch() {
  const watched = new Map<AbortSignal, Watched>();

  function add(signal: AbortSignal, call: InboundCall): void {
    let entry = watched.get(signal);
    if (entry === undefined) {
      const calls = new Set<InboundCall>();
      const listener = (): void => {
        watched.delete(signal);
        for (const c of calls) c.abort(signal.reason);
      };
      entry = { calls, listener };
      watched.set(signal, entry);
      signal.addEventListener("abort", listener, { once: true });
    }
    entry.calls.add(call);
  }

  function remove(signal: AbortSignal, call: InboundCall): void {
    const entry = watched.get(signal);
    if (entry === undefined || !entry.calls.delete(call) || entry.calls.size > 0) return;
    watched.delete(signal);
    signal.removeEventListener("abort", entry.listener);
  }

  return { add, remove };
}

/** Most idle signals whose listener an outbound side keeps for the next request that passes the same signal. */
export const MAX_KEPT_SIGNALS = 128;

/** The `abort` listeners of outbound requests, by signal. */
export interface RequestAborts {
  /** Request `id` is aborted when `signal` aborts. */
  watch(signal: AbortSignal, id: JsonRpcId): void;
  /** Request `id` ended: its abort no longer matters. */
  unwatch(signal: AbortSignal, id: JsonRpcId): void;
  /** Removes every listener (the peer closed). */
  clear(): void;
}

/** The requests one signal aborts: usually one (`first`), more only when they share it. */
class SignalUse {
  first: JsonRpcId | undefined = undefined;
  more: Set<JsonRpcId> | undefined = undefined;
  constructor(readonly listener: () => void) {}

  get idle(): boolean {
    return this.first === undefined && (this.more === undefined || this.more.size === 0);
  }
}

/**
 * One `abort` listener per distinct signal passed to outbound requests, calling `abort(id)` for
 * each request of that signal still running. A listener stays on its signal when the last of
 * them ends (up to MAX_KEPT_SIGNALS signals, until the peer closes), so a caller that reuses its
 * signals (a pool, one signal per session) costs no `addEventListener` and `removeEventListener`
 * per request: with their garbage, about half a microsecond a request in Node 20. A signal
 * shared by many requests at once has one listener, not one each (no max-listeners warning).
 */
export function createRequestAborts(abort: (id: JsonRpcId) => void): RequestAborts {
  const uses = new Map<AbortSignal, SignalUse>();
  let kept = 0;

  function fire(signal: AbortSignal): void {
    const use = uses.get(signal);
    if (use === undefined) return;
    uses.delete(signal);
    signal.removeEventListener("abort", use.listener);
    if (use.idle) kept--;
    const ids = use.more === undefined ? [] : [...use.more];
    if (use.first !== undefined) ids.unshift(use.first);
    use.first = undefined;
    use.more = undefined;
    for (const id of ids) abort(id);
  }

  return {
    watch(signal, id) {
      let use = uses.get(signal);
      if (use === undefined) {
        use = new SignalUse(() => fire(signal));
        uses.set(signal, use);
        signal.addEventListener("abort", use.listener);
      } else if (use.idle) {
        kept--;
      }
      if (use.first === undefined) use.first = id;
      else (use.more ??= new Set()).add(id);
    },
    unwatch(signal, id) {
      const use = uses.get(signal);
      if (use === undefined) return;
      if (use.first === id) use.first = undefined;
      else if (use.more?.delete(id) !== true) return;
      if (!use.idle) return;
      if (kept < MAX_KEPT_SIGNALS) {
        kept++;
        return;
      }
      uses.delete(signal);
      signal.removeEventListener("abort", use.listener);
    },
    clear() {
      for (const [signal, use] of uses) signal.removeEventListener("abort", use.listener);
      uses.clear();
      kept = 0;
    },
  };
}
