/**
 * A minimal typed listener registry: `on(event, fn)` returns the function that removes the
 * listener. A listener that throws is reported to `report` and never stops the others.
 */

/** Registers a listener for one event; returns a function that removes it (idempotent). */
export type On<Events> = <K extends keyof Events>(event: K, listener: (payload: Events[K]) => void) => () => void;

/** The private side of the registry, kept by the owner. */
export interface Emitter<Events> {
  readonly on: On<Events>;
  /** Calls every listener of `event` with `payload`, in registration order. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void;
  /** True when `event` has at least one listener. */
  has(event: keyof Events): boolean;
  /** Removes every listener. */
  clear(): void;
}

/** Creates a registry; `report` receives whatever a listener throws. */
export function createEmitter<Events>(report: (error: unknown, event: keyof Events) => void): Emitter<Events> {
  const listeners = new Map<keyof Events, Set<(payload: never) => void>>();
  return {
    on(event, listener) {
      if (typeof listener !== "function") throw new TypeError(`on("${String(event)}", listener): listener must be a function`);
      let set = listeners.get(event);
      if (set === undefined) listeners.set(event, (set = new Set()));
      // Wrapped so the same function registered twice is two registrations, each removable once.
      const entry = (payload: never): void => listener(payload);
      set.add(entry);
      return () => {
        set.delete(entry);
      };
    },
    emit(event, payload) {
      const set = listeners.get(event);
      if (set === undefined) return;
      for (const listener of [...set]) {
        try {
          (listener as (payload: Events[typeof event]) => void)(payload);
        } catch (error) {
          report(error, event);
        }
      }
    },
    has(event) {
      return (listeners.get(event)?.size ?? 0) > 0;
    },
    clear() {
      listeners.clear();
    },
  };
}
