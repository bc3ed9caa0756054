/**
 * The default `TaskStore`: in memory, bounded. At most `maxTasks` tasks are kept; when full, a
 * new task evicts the task that finished longest ago, else expired ones and those whose lease
 * ran out; when every kept task is still running, `create` rejects (the server answers -32603 "too many tasks"). Expired
 * tasks are also dropped when read. One process only (servers of one process may share it):
 * use a shared store (`@proto/redis-stores`) to survive the instance.
 */
import type { InputRequest } from "@proto/mcp-protocol";
import type { TaskPatch, TaskRecord, TaskResponses, TaskStore, TaskUpdate } from "./store";
import { isTerminal, LEASE_LOST_ERROR } from "./store";
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

type Inputs = { readonly [key: string]: InputRequest };

function expired(record: TaskRecord, now: number): boolean {
  return record.ttlMs !== null && now >= record.createdAt + record.ttlMs;
}

/** `inputRequests` without the answered keys, and the status that leaves (see the `TaskStore` contract). */
function outstanding(next: TaskRecord, answered: { has(key: string): boolean } | undefined): TaskRecord {
  const inputs: Record<string, InputRequest> = {};
  for (const [key, request] of Object.entries(next.inputRequests ?? {})) if (answered?.has(key) !== true) inputs[key] = request;
  const { inputRequests: _dropped, ...rest } = next;
  const waiting = Object.keys(inputs).length > 0;
  const status = next.status === "input_required" && !waiting ? "working" : next.status;
  return waiting && !isTerminal(status) ? { ...rest, status, inputRequests: inputs as Inputs } : { ...rest, status };
}

/** Creates an in-memory task store (see the module comment for its bound). */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore & { readonly size: number } {
  const max = options.maxTasks ?? 10_000;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`createMemoryTaskStore: maxTasks must be a positive integer, got ${String(max)}`);
  const now = options.now ?? Date.now;
  const records = new Map<string, TaskRecord>();
  // answers recorded and not claimed yet, by task
  const responses = new Map<string, Map<string, unknown>>();
  // finished tasks in the order they finished: the first is evicted first
  const finished = new Set<string>();

  const drop = (taskId: string): void => {
    records.delete(taskId);
    responses.delete(taskId);
    finished.delete(taskId);
  };
  const put = (record: TaskRecord): TaskRecord => {
    records.set(record.taskId, record);
    if (isTerminal(record.status)) (finished.add(record.taskId), responses.delete(record.taskId));
    return record;
  };
  const live = (taskId: string): TaskRecord | undefined => {
    const record = records.get(taskId);
    if (record === undefined) return undefined;
    const at = now();
    if (expired(record, at)) return void drop(taskId);
    if (isTerminal(record.status) || record.leaseUntil === undefined || at < record.leaseUntil) return record;
    const { inputRequests: _dropped, ...rest } = record;
    return put({ ...rest, status: "failed", statusMessage: LEASE_LOST_ERROR.message, error: { ...LEASE_LOST_ERROR }, lastUpdatedAt: at });
  };
  // the longest finished task goes first; only a store full of unfinished ones is scanned (for expired and lost ones)
  const makeRoom = (): boolean => {
    if (records.size < max) return true;
    const oldest = finished.values().next();
    if (oldest.done !== true) return (drop(oldest.value), true);
    for (const id of [...records.keys()]) live(id);
    for (const id of finished) {
      if (records.size < max) break;
      drop(id);
    }
    return records.size < max;
  };
  const change = (taskId: string, apply: (record: TaskRecord) => TaskRecord): Promise<TaskUpdate | undefined> => {
    const record = live(taskId);
    if (record === undefined) return Promise.resolve(undefined);
    if (isTerminal(record.status)) return Promise.resolve({ record, applied: false });
    return Promise.resolve({ record: put(apply(record)), applied: true });
  };

  return {
    create(record, leaseMs) {
      if (records.has(record.taskId)) return Promise.reject(new TypeError(`TaskStore.create: task ${record.taskId} exists already`));
      if (!makeRoom()) {
        const error = new Error(`too many unfinished tasks (${max}); retry when some have finished`);
        return Promise.reject(Object.assign(error, { code: ServerFaultCode.TaskStoreFull }));
      }
      put(outstanding({ ...record, leaseUntil: now() + leaseMs }, undefined));
      return Promise.resolve();
    },
    get: (taskId) => Promise.resolve(live(taskId)),
    update: (taskId, patch: TaskPatch) => change(taskId, (record) => outstanding({ ...record, ...patch }, responses.get(taskId))),
    answer(taskId, given: TaskResponses, at) {
      return change(taskId, (record) => {
        const waiting = record.inputRequests ?? {};
        const keys = Object.keys(given).filter((key) => Object.hasOwn(waiting, key));
        if (keys.length === 0) return record;
        const pending = responses.get(taskId) ?? new Map<string, unknown>();
        for (const key of keys) pending.set(key, given[key]);
        responses.set(taskId, pending);
        const next = outstanding(record, pending);
        return next.status === record.status ? next : { ...next, lastUpdatedAt: at };
      });
    },
    claim(taskId) {
      const pending = responses.get(taskId);
      responses.delete(taskId);
      return Promise.resolve(pending === undefined ? {} : Object.fromEntries(pending));
    },
    renew(taskIds, leaseMs) {
      const ended: string[] = [];
      for (const id of taskIds) {
        const record = live(id);
        if (record === undefined || isTerminal(record.status)) ended.push(id);
        else put({ ...record, leaseUntil: now() + leaseMs });
      }
      return Promise.resolve(ended);
    },
    delete(taskId) {
      drop(taskId);
      return Promise.resolve();
    },
    list(owner, cursor, limit) {
      const start = cursor === undefined ? 0 : Number(/^o(\d{1,9})$/.exec(cursor)?.[1] ?? Number.NaN);
      if (!Number.isInteger(start)) return Promise.reject(new RangeError("Invalid cursor: pass back the nextCursor of the previous page"));
      const mine = [...records.values()].filter((r) => r.owner === owner).map((r) => live(r.taskId)).filter((r) => r !== undefined).reverse();
      const page = mine.slice(start, start + limit);
      const end = start + page.length;
      return Promise.resolve(end < mine.length ? { records: page, nextCursor: `o${end}` } : { records: page });
    },
    get size() {
      return records.size;
    },
  } satisfies TaskStore & { readonly size: number };
}
