/**
 * The `tasks/*` methods, both eras in one place (MCP 2025-11-25 basic/utilities/tasks; the
 * tasks extension "Task Polling", "Task Update Requests", "Task Cancellation"):
 * - `tasks/get`: 2025 the `Task`; 2026 `resultType: "complete"` and the `DetailedTask`.
 * - `tasks/cancel`: 2025 the cancelled `Task`, -32602 for a terminal task; 2026 an empty
 *   acknowledgement, also for a terminal task (idempotent).
 * - `tasks/result` (2025): blocks until terminal, sending the task's input requests on its own
 *   stream meanwhile; then the result with `related-task` `_meta`, or the task's error.
 * - `tasks/list` (2025): the caller's tasks, paginated. `tasks/update` (2026): input responses.
 * Under 2026-07-28 `tasks/result` and `tasks/list` are -32601 and every method needs the
 * extension declared on the request (-32021). An unknown, expired or someone else's task is
 * -32602 "Task not found", the same answer for all three.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import { createMissingCapabilityError, isModernProtocolVersion, MetaKey, REMOVED_MODERN_TASK_METHODS, RequestMethod, TASKS_EXTENSION } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { FeatureRequestHandler } from "../feature";
import { withRelatedTask } from "./exchange";
import type { LiveTask, TaskRuntime } from "./runtime";
import { mayAccess, ownerOf } from "./ownership";
import type { TaskRecord } from "./store";
import { isTerminal } from "./store";
import { detailedTask, legacyTask } from "./wire";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`);
}

function taskIdOf(method: string, params: JsonRpcParams | undefined): string {
  const id = isRecord(params) ? params.taskId : undefined;
  if (typeof id !== "string" || id === "" || id.length > 256) throw invalid(`${method} needs { taskId: string }`);
  return id;
}

/** Refuses what the era does not serve; true for a 2026-07-28 request. */
function gate(method: string, ctx: RequestContext): boolean {
  if (!isModernProtocolVersion(ctx.protocolVersion)) {
    if (method === RequestMethod.TasksUpdate) throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, "Method not found: tasks/update belongs to the 2026-07-28 tasks extension; under 2025-11-25 input requests are answered on the tasks/result stream");
    return false;
  }
  if (REMOVED_MODERN_TASK_METHODS.includes(method)) {
    throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method} was removed by the tasks extension (the result is inlined on tasks/get)`);
  }
  if (ctx.extension(TASKS_EXTENSION) === undefined) {
    throw createMissingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, `${method} needs the ${TASKS_EXTENSION} extension: declare it in _meta["io.modelcontextprotocol/clientCapabilities"].extensions`);
  }
  return true;
}

/** Creates the handlers of the `tasks/*` methods. */
export function createTaskMethods(runtime: TaskRuntime): { readonly [method: string]: FeatureRequestHandler<undefined> } {
  async function find(method: string, params: JsonRpcParams | undefined, ctx: RequestContext): Promise<TaskRecord> {
    const record = await runtime.store.get(taskIdOf(method, params));
    if (record === undefined || !mayAccess(record, ctx)) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Failed to retrieve task: Task not found (unknown, expired, or not yours)");
    return record;
  }

  /** Sends the task's unsent input requests on this `tasks/result` stream; answers come back to the task. */
  function forward(live: LiveTask, ctx: RequestContext): void {
    for (const [key, input] of runtime.unsent(live)) {
      input.inFlight = true;
      ctx.request(input.request.method, withRelatedTask(input.request.params as JsonRpcParams | undefined, live.id), { signal: ctx.signal }).then(
        (value) => runtime.answer(live, { [key]: value }),
        (error: unknown) => {
          if (ctx.signal.aborted) input.inFlight = false;
          else if (live.inputs.get(key) === input) (live.inputs.delete(key), input.reject(error));
        },
      ).catch((error: unknown) => (live.inputs.delete(key), input.reject(error)));
    }
  }

  async function result(params: JsonRpcParams | undefined, ctx: RequestContext): Promise<unknown> {
    let record = await find(RequestMethod.TasksResult, params, ctx);
    while (!isTerminal(record.status)) {
      if (ctx.signal.aborted) return undefined;
      const live = runtime.live(record.taskId);
      if (live !== undefined) forward(live, ctx);
      await runtime.changed(record.taskId, ctx.signal);
      record = await find(RequestMethod.TasksResult, params, ctx);
    }
    if (record.status === "completed") {
      const r = record.result ?? {};
      return { ...r, _meta: { ...(isRecord(r._meta) ? r._meta : {}), [MetaKey.RelatedTask]: { taskId: record.taskId } } };
    }
    if (record.status === "failed") {
      const e = record.error ?? {};
      throw new JsonRpcError(typeof e.code === "number" ? e.code : JsonRpcErrorCode.InternalError, typeof e.message === "string" ? e.message : "The task failed", e.data);
    }
    throw new JsonRpcError(JsonRpcErrorCode.InternalError, `Task ${record.taskId} was cancelled; it has no result`);
  }

  return {
    [RequestMethod.TasksGet]: async (params, ctx) => {
      const modern = gate(RequestMethod.TasksGet, ctx);
      const record = await find(RequestMethod.TasksGet, params, ctx);
      return modern ? { resultType: "complete", ...detailedTask(record) } : legacyTask(record);
    },
    [RequestMethod.TasksCancel]: async (params, ctx) => {
      const modern = gate(RequestMethod.TasksCancel, ctx);
      const record = await find(RequestMethod.TasksCancel, params, ctx);
      if (isTerminal(record.status)) {
        if (modern) return {};
        throw invalid(`Cannot cancel task: already in terminal status '${record.status}'`);
      }
      const after = await runtime.cancel(record);
      if (modern) return {};
      if (after === undefined || after.status !== "cancelled") throw invalid(`Cannot cancel task: already in terminal status '${after?.status ?? "expired"}'`);
      return legacyTask(after);
    },
    [RequestMethod.TasksUpdate]: async (params, ctx) => {
      gate(RequestMethod.TasksUpdate, ctx);
      const record = await find(RequestMethod.TasksUpdate, params, ctx);
      const responses = (params as { inputResponses?: unknown }).inputResponses;
      if (!isRecord(responses)) throw invalid("tasks/update needs inputResponses (an object keyed by input request)");
      const live = runtime.live(record.taskId);
      if (live !== undefined) await runtime.answer(live, responses);
      return {};
    },
    [RequestMethod.TasksResult]: (params, ctx) => (gate(RequestMethod.TasksResult, ctx), result(params, ctx)),
    [RequestMethod.TasksList]: async (params, ctx) => {
      gate(RequestMethod.TasksList, ctx);
      const cursor = isRecord(params) ? params.cursor : undefined;
      if (cursor !== undefined && typeof cursor !== "string") throw invalid("cursor must be the nextCursor of the previous page");
      const page = await runtime.store.list(ownerOf(ctx), cursor, runtime.pageSize).catch((error: unknown) => {
        throw invalid(error instanceof Error ? error.message : "Invalid cursor");
      });
      const tasks = page.records.map(legacyTask);
      return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
    },
  };
}
