/**
 * The tasks feature: the `tasks/*` routes, `capabilities.tasks` for 2025-11-25 sessions
 * (list, cancel, task-augmented `tools/call`; never in a 2026-07-28 discover), the extension
 * `io.modelcontextprotocol/tasks` that 2026-07-28 requests negotiate, and the `tools/call`
 * wrapper that turns calls into tasks.
 */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import { TASKS_EXTENSION } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { ServerExtension } from "../extension";
import type { AnyFeature } from "../feature";
import { createTaskCalls } from "./call";
import type { TaskMode } from "./call";
import { createMemoryTaskStore } from "./memory-store";
import { createTaskMethods } from "./methods";
import type { TasksOptions } from "./options";
import { mayAccess } from "./ownership";
import { createTaskRuntime } from "./runtime";

/** What the feature needs from the server. */
export interface TasksHost {
  readonly logger: Logger;
  /** Delivers `notifications/tasks` to the listen streams that asked for the task. */
  readonly stream: (method: string, params: JsonRpcParams) => void;
  /** How a served tool takes part in tasks, or undefined for an unknown tool. */
  readonly modeOf: (name: string) => TaskMode | undefined;
}

/** Wraps the running of a `tools/call`. */
export type ToolCallWrapper = (params: JsonRpcParams | undefined, ctx: RequestContext, run: (ctx: RequestContext) => unknown) => unknown;

/** Creates the tasks feature from `ServerOptions.tasks`. */
export function createTasks(options: TasksOptions, host: TasksHost) {
  const runtime = createTaskRuntime(options.store ?? createMemoryTaskStore(), options, host);
  const feature: AnyFeature = {
    name: "tasks",
    capabilities: () => ({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }),
    requests: createTaskMethods(runtime),
  };
  const extension: ServerExtension = { id: TASKS_EXTENSION };
  const wrap: ToolCallWrapper = createTaskCalls(runtime, host.modeOf);
  /** The ids among `taskIds` whose tasks the caller of `ctx` may see (for `subscriptions/listen`). */
  const visible = async (taskIds: readonly string[], ctx: RequestContext): Promise<readonly string[]> => {
    const records = await Promise.all(taskIds.map((id) => runtime.store.get(id)));
    return taskIds.filter((_id, i) => {
      const record = records[i];
      return record !== undefined && mayAccess(record, ctx);
    });
  };
  return { feature, extension, wrap, runtime, visible };
}
