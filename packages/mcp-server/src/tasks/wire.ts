/**
 * A stored task on each era's wire: 2025-11-25 `Task` (`ttl`, `pollInterval`; the result and
 * input requests travel through `tasks/result`), and the tasks extension's `DetailedTask`
 * (`ttlMs`, `pollIntervalMs`, with `inputRequests`, `result` or `error` inlined; never
 * `requestState` nor `related-task`).
 */
import type { DetailedTask, JsonObject, Task } from "@proto/mcp-protocol";
import type { TaskRecord } from "./store";

const iso = (ms: number): string => new Date(ms).toISOString();

/** The 2025-11-25 `Task`. */
export function legacyTask(record: TaskRecord): Task {
  const task: { -readonly [K in keyof Task]: Task[K] } = {
    taskId: record.taskId,
    status: record.status,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttl: record.ttlMs,
    pollInterval: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task;
}

/** The extension's task fields (what `CreateTaskResult` carries). */
export function modernTask(record: TaskRecord): JsonObject {
  const task: Record<string, unknown> = {
    taskId: record.taskId,
    status: record.status,
    createdAt: iso(record.createdAt),
    lastUpdatedAt: iso(record.lastUpdatedAt),
    ttlMs: record.ttlMs,
    pollIntervalMs: record.pollIntervalMs,
  };
  if (record.statusMessage !== undefined) task.statusMessage = record.statusMessage;
  return task as JsonObject;
}

/** The extension's `DetailedTask`: the task plus what its status carries. */
export function detailedTask(record: TaskRecord): DetailedTask {
  const task = modernTask(record) as Record<string, unknown>;
  if (record.status === "input_required") task.inputRequests = record.inputRequests ?? {};
  else if (record.status === "completed") task.result = record.result ?? {};
  else if (record.status === "failed") task.error = record.error ?? { code: -32603, message: "The task failed" };
  return task as unknown as DetailedTask;
}
