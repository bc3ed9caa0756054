/**
 * `TaskStore` on Redis (MCP 2025-11-25 basic/utilities/tasks; the tasks extension): the tasks of
 * every instance of a server in one Redis, so a task created through one instance is polled,
 * answered, cancelled and fetched through any other, and survives the instance that created it
 * (its work does not: a task whose instance stops renewing its lease is failed with
 * `LEASE_LOST_ERROR`). Every operation is one Lua script (atomic); see `task-store-scripts.ts`
 * for the keys. A task expires with its TTL (`PEXPIREAT` at `createdAt + ttlMs`); at most
 * `maxTasks` are kept, the longest finished evicted first. The caller owns the client.
 */
import type { InputRequest, JsonObject, TaskStatus } from "@proto/mcp-protocol";
import { LEASE_LOST_ERROR, ServerFaultCode } from "@proto/mcp-server";
import type { TaskPage, TaskPatch, TaskRecord, TaskResponses, TaskStore, TaskUpdate } from "@proto/mcp-server";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { TASK_ANSWER, TASK_CLAIM, TASK_CREATE, TASK_DELETE, TASK_GET, TASK_LIST, TASK_RENEW, TASK_UPDATE } from "./task-store-scripts";

/** Options of `createRedisTaskStore`. */
export interface RedisTaskStoreOptions {
  /** Prefix of every key (the store adds `task:`), so deployments can share one Redis. Default `mcp:`. */
  readonly keyPrefix?: string;
  /** Most tasks kept at once over all instances, finished ones included. Default 100,000. */
  readonly maxTasks?: number;
}

type Raw = [string[], string[], number];

function pairs(flat: readonly string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i] as string, flat[i + 1] as string);
  return map;
}

function decode(raw: Raw): TaskRecord {
  const f = pairs(raw[0]);
  const num = (name: string): number => Number(f.get(name));
  const record: Record<string, unknown> = {
    taskId: f.get("id") ?? "",
    owner: f.get("owner") ?? "",
    method: f.get("method") ?? "",
    status: f.get("status") as TaskStatus,
    createdAt: num("createdAt"),
    lastUpdatedAt: num("lastUpdatedAt"),
    ttlMs: f.get("ttlMs") === "" ? null : num("ttlMs"),
    pollIntervalMs: num("pollIntervalMs"),
    leaseUntil: num("leaseUntil"),
  };
  if (f.has("statusMessage")) record.statusMessage = f.get("statusMessage");
  if (f.has("result")) record.result = JSON.parse(f.get("result") as string) as JsonObject;
  if (f.has("error")) record.error = JSON.parse(f.get("error") as string) as JsonObject;
  const inputs = pairs(raw[1]);
  if (inputs.size > 0) record.inputRequests = Object.fromEntries([...inputs].map(([k, v]) => [k, JSON.parse(v) as InputRequest]));
  return record as unknown as TaskRecord;
}

/** The hash fields a patch sets (field/value pairs). */
function fieldsOf(patch: TaskPatch): string[] {
  const out: string[] = [];
  if (patch.status !== undefined) out.push("status", patch.status);
  if (patch.statusMessage !== undefined) out.push("statusMessage", patch.statusMessage);
  if (patch.lastUpdatedAt !== undefined) out.push("lastUpdatedAt", String(patch.lastUpdatedAt));
  if (patch.result !== undefined) out.push("result", JSON.stringify(patch.result));
  if (patch.error !== undefined) out.push("error", JSON.stringify(patch.error));
  return out;
}

function inputArgs(inputs: TaskPatch["inputRequests"]): string[] {
  if (inputs === undefined) return ["0", "0"];
  const entries = Object.entries(inputs);
  return ["1", String(entries.length), ...entries.flatMap(([k, v]) => [k, JSON.stringify(v)])];
}

function checkedPrefix(keyPrefix: unknown): string {
  if (typeof keyPrefix !== "string") throw new TypeError("createRedisTaskStore: keyPrefix must be a string");
  return `${keyPrefix}task:`;
}

/** Creates the store on `client` (a `connectRedis()` command client; the caller closes it). */
export function createRedisTaskStore(client: RedisClient, options: RedisTaskStoreOptions = {}): TaskStore {
  const prefix = checkedPrefix(options.keyPrefix ?? "mcp:");
  const max = options.maxTasks ?? 100_000;
  if (!Number.isInteger(max) || max < 1) throw new TypeError(`createRedisTaskStore: maxTasks must be a positive integer, got ${String(max)}`);
  const lost = [prefix, LEASE_LOST_ERROR.message, JSON.stringify(LEASE_LOST_ERROR)];
  const run = (source: string) => {
    const script = createScript(client, source);
    return (args: readonly string[]) => script([], [...lost, ...args]);
  };
  const create = run(TASK_CREATE);
  const get = run(TASK_GET);
  const update = run(TASK_UPDATE);
  const answer = run(TASK_ANSWER);
  const renew = run(TASK_RENEW);
  const list = run(TASK_LIST);
  const claim = createScript(client, TASK_CLAIM);
  const remove = createScript(client, TASK_DELETE);
  const outcome = (raw: unknown): TaskUpdate | undefined =>
    raw === null ? undefined : { record: decode(raw as Raw), applied: (raw as Raw)[2] === 1 };

  return {
    async create(record, leaseMs) {
      const r = record;
      const expireAt = r.ttlMs === null ? "" : String(r.createdAt + r.ttlMs);
      const fields = ["id", r.taskId, "owner", r.owner, "method", r.method, "createdAt", String(r.createdAt), "ttlMs", r.ttlMs === null ? "" : String(r.ttlMs), "pollIntervalMs", String(r.pollIntervalMs)];
      fields.push(...fieldsOf({ status: r.status, lastUpdatedAt: r.lastUpdatedAt, ...(r.statusMessage === undefined ? {} : { statusMessage: r.statusMessage }), ...(r.result === undefined ? {} : { result: r.result }), ...(r.error === undefined ? {} : { error: r.error }) }));
      const done = await create([r.taskId, String(max), String(Math.ceil(leaseMs)), expireAt, String(r.createdAt), r.owner, r.status, ...fields]);
      if (done === "exists") throw new TypeError(`TaskStore.create: task ${r.taskId} exists already`);
      if (done === "full") throw Object.assign(new Error(`too many unfinished tasks (${max}); retry when some have finished`), { code: ServerFaultCode.TaskStoreFull });
      if (r.inputRequests !== undefined) await update([r.taskId, ...inputArgs(r.inputRequests)]);
    },
    async get(taskId) {
      const raw = (await get([taskId])) as Raw | null;
      return raw === null ? undefined : decode(raw);
    },
    async update(taskId, patch) {
      return outcome(await update([taskId, ...inputArgs(patch.inputRequests), ...fieldsOf(patch)]));
    },
    async answer(taskId, responses: TaskResponses, at) {
      const args = Object.entries(responses).flatMap(([k, v]) => [k, JSON.stringify(v ?? null)]);
      return outcome(await answer([taskId, String(at), ...args]));
    },
    async claim(taskId) {
      const flat = (await claim([], [prefix, taskId])) as string[];
      return Object.fromEntries([...pairs(flat)].map(([k, v]) => [k, JSON.parse(v) as unknown]));
    },
    async renew(taskIds, leaseMs) {
      if (taskIds.length === 0) return [];
      return (await renew([String(Math.ceil(leaseMs)), ...taskIds])) as string[];
    },
    async delete(taskId) {
      await remove([], [prefix, taskId]);
    },
    async list(owner, cursor, limit): Promise<TaskPage> {
      const start = cursor === undefined ? 0 : Number(/^o(\d{1,9})$/.exec(cursor)?.[1] ?? Number.NaN);
      if (!Number.isInteger(start)) throw new RangeError("Invalid cursor: pass back the nextCursor of the previous page");
      const [more, page] = (await list([owner, String(start), String(limit)])) as [number, Raw[]];
      const records = page.map(decode);
      return more === 1 ? { records, nextCursor: `o${start + records.length}` } : { records };
    },
  };
}
