/** The options of the tasks feature (`ServerOptions.tasks`) and their checks. */
import type { TaskStore } from "./store";

/** Options of the tasks feature (`ServerOptions.tasks`). */
export interface TasksOptions {
  /** Where tasks are kept. Default: `createMemoryTaskStore()` (10,000 tasks). */
  readonly store?: TaskStore;
  /** TTL of a task whose request asks none (2026-07-28 requests never ask), ms; null for unlimited. Default 3,600,000 (1 h). */
  readonly defaultTtlMs?: number | null;
  /** Longest TTL granted (a 2025-11-25 `task.ttl` above it is lowered), ms. Default 86,400,000 (24 h). */
  readonly maxTtlMs?: number;
  /** The polling interval suggested to clients, ms. Default 1,000. */
  readonly pollIntervalMs?: number;
  /** Tasks per `tasks/list` page (2025-11-25). Default 100. */
  readonly listPageSize?: number;
  /**
   * How long a task stays held by the instance running it without a renewal, ms. The instance
   * renews its tasks every poll interval (at most a third of this); a store fails a task whose
   * lease ran out (its instance died), so it does not stay `working` forever. Default 30,000.
   */
  readonly leaseMs?: number;
}

/** Throws a `TypeError` saying what to change for a bad option. */
export function checkOptions(o: TasksOptions): void {
  const positive = (name: string, v: unknown): void => {
    if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1)) throw new TypeError(`createServer: tasks.${name} must be a positive integer (milliseconds), got ${String(v)}`);
  };
  if (o.defaultTtlMs !== null) positive("defaultTtlMs", o.defaultTtlMs);
  positive("maxTtlMs", o.maxTtlMs);
  positive("pollIntervalMs", o.pollIntervalMs);
  positive("listPageSize", o.listPageSize);
  positive("leaseMs", o.leaseMs);
}
