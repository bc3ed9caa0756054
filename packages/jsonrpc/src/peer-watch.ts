/**
 * One `abort` listener per distinct exchange signal, however many handlers watch it: a
 * long-lived stream signal (stdio, WebSocket) would otherwise collect one listener per
 * running request (and Node's max-listeners warning).
 */
import type { InboundCall } from "./peer-call";

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
