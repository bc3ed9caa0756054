/**
 * The default `TaskStore`: in memory, bounded. At most `maxTasks` tasks are kept; when full, a
 * new task first evicts expired ones, then the task that finished longest ago; when every kept
 * task is still running, `create` rejects (the server answers -32603 "too many tasks"). Expired
 * tasks are also dropped when read. One process only: use a shared store to survive restarts.
 */
import type { TaskPatch, TaskRecord, TaskStore, TaskUpdate } from "./store";
import { isTerminal } from "./store";
import { ServerFaultCode } from "../fault-codes";

/** Options of `createMemoryTaskStore`. */
export interface MemoryTaskStoreOptions {
  /** Most tasks kept at once, finished ones included. Default 10,000. */
  readonly maxTasks?: number;
  /** The clock (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** @deprecated The fault code of a full store is `ServerFaultCode.TaskStoreFull`; this alias goes in the next major. */
export const TASK_STORE_FULL = ServerFaultCode.TaskStoreFull;

function expired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && now >= record.createdAt + record.ttlMs;
}

/** Creates an in-memory task store (see the module comment for its bound). */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore & { readonly size: number } {
  const max = options.maxTasks ?? 10_000;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`createMemoryTaskStore: maxTasks must be a positive integer, got ${String(max)}`);
  const now = options.now ?? Date.now;
  const records = new Map<string, TaskRecord>();
  // finished tasks in the order they finished: the first is evicted first
  const finished = new Set<string>();

  const drop = (taskId: string): void => {
    records.delete(taskId);
    finished.delete(taskId);
  };
  const live = (taskId: string): TaskRecord | undefined => {
    const record = records.get(taskId);
    if (record === undefined) return undefined;
    if (!expired(record, now())) return record;
    drop(taskId);
    return undefined;
  };
  const makeRoom = (): boolean => {
    if (records.size < max) return true;
    const at = now();
    for (const [id, record] of records) if (expired(record, at)) drop(id);
    for (const id of finished) {
      if (records.size < max) break;
      drop(id);
    }
    return records.size < max;
  };

  return {
    create(record) {
      if (records.has(record.taskId)) return Promise.reject(new TypeError(`TaskStore.create: task ${record.taskId} exists already`));
      if (!makeRoom()) {
        const error = new Error(`too many unfinished tasks (${max}); retry when some have finished`);
        return Promise.reject(Object.assign(error, { code: ServerFaultCode.TaskStoreFull }));
      }
      records.set(record.taskId, record);
      if (isTerminal(record.status)) finished.add(record.taskId);
      return Promise.resolve();
    },
    get: (taskId) => Promise.resolve(live(taskId)),
    update(taskId, patch: TaskPatch) {
      const record = live(taskId);
      if (record === undefined) return Promise.resolve(undefined);
      if (isTerminal(record.status)) return Promise.resolve<TaskUpdate>({ record, applied: false });
      const next: TaskRecord = { ...record, ...patch };
      if (next.inputRequests !== undefined && Object.keys(next.inputRequests).length === 0) delete (next as { inputRequests?: unknown }).inputRequests;
      records.set(taskId, next);
      if (isTerminal(next.status)) finished.add(taskId);
      return Promise.resolve({ record: next, applied: true });
    },
    delete(taskId) {
      drop(taskId);
      return Promise.resolve();
    },
    list(owner, cursor, limit) {
      const start = cursor === undefined ? 0 : Number(/^o(\d{1,9})$/.exec(cursor)?.[1] ?? Number.NaN);
      if (!Number.isInteger(start)) return Promise.reject(new RangeError("Invalid cursor: pass back the nextCursor of the previous page"));
      const at = now();
      const mine = [...records.values()].filter((r) => r.owner === owner && !expired(r, at)).reverse();
      const page = mine.slice(start, start + limit);
      const end = start + page.length;
      return Promise.resolve(end < mine.length ? { records: page, nextCursor: `o${end}` } : { records: page });
    },
    get size() {
      return records.size;
    },
  } satisfies TaskStore & { readonly size: number };
}
