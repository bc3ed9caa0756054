/**
 * Tool calls as tasks, one API for both eras: `callToolAsTask` starts a call that may become a
 * task and returns its handle; `resumeTask` watches a task by id (after a restart, from a
 * persisted id); `callTool` uses `runCreatedTask` to drive a task the server made of a plain
 * call to its result. 2025-11-25 (basic/utilities/tasks "Tool-Level Negotiation"): the client
 * asks for a task only where the server's `tasks.requests.tools.call` and the tool's
 * `execution.taskSupport` allow one. 2026-07-28 (ext-tasks): the server alone decides.
 */
import type { CallToolResult, Tool } from "@proto/mcp-protocol";
import type { CallToolOptions, Client } from "./client-types";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import type { CallToolAsTaskOptions, ToolTask } from "./task-types";
import { finishedTask, watchTask } from "./task-handle";
import { mayRunAsTask } from "./task-options";
import { createdTask, type CreatedTask } from "./task-wire";
import { checkTimeout } from "./deadline";

/** What the task API borrows from the tools API. */
export interface ToolCallHelpers {
  /** The tool's definition (from the cached list), or `undefined` when it cannot be known. */
  definition(name: string, options: CallToolOptions | undefined): Promise<Tool | undefined>;
  /** Checks `structuredContent` against the tool's `outputSchema`; throws `OUTPUT_SCHEMA_VIOLATION`. */
  checkOutput(tool: Tool, result: CallToolResult): void;
  /** Sends `tools/call` with these params. */
  send(params: { readonly [key: string]: unknown }, name: string, options: RequestOptions | undefined): Promise<unknown>;
}

/** Drives a task the server made of a call to its result (`callTool`'s transparent path). */
export function runCreatedTask(core: Core, created: CreatedTask, options: RequestOptions | undefined): Promise<CallToolResult> {
  return watchTask(core, { taskId: created.snapshot.info.taskId, snapshot: created.snapshot, immediateResponse: created.immediateResponse }, options).result();
}

function checkArgs(name: unknown, args: unknown, options: CallToolAsTaskOptions | undefined): void {
  if (typeof name !== "string" || name === "") throw new TypeError("callToolAsTask(name, args): name must be a non-empty string");
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    throw new TypeError(`callToolAsTask("${name}", args): args must be an object of named arguments`);
  }
  checkTimeout("ttlMs", options?.ttlMs);
}

/** A handle whose `result()` is checked against the tool's `outputSchema` (once, memoized). */
function validated(task: ToolTask, tool: Tool | undefined, helpers: ToolCallHelpers): ToolTask {
  if (tool?.outputSchema === undefined) return task;
  const checked = task.result().then((result) => {
    helpers.checkOutput(tool, result);
    return result;
  });
  checked.catch(() => {});
  return { ...task, get task() { return task.task; }, result: () => checked };
}

/** Builds `callToolAsTask` and `resumeTask`. */
export function createTasksApi(core: Core, helpers: ToolCallHelpers): Pick<Client, "callToolAsTask" | "resumeTask"> {
  return {
    async callToolAsTask(name, args, options) {
      checkArgs(name, args, options);
      const session = await core.connection.ensure(options?.signal);
      const modern = session.modern !== undefined;
      const validate = options?.validateOutput ?? core.options.validateToolOutput ?? true;
      // 2025-11-25 needs the tool's taskSupport before the call; 2026-07-28 needs the definition only to validate.
      const tool = validate || !modern ? await helpers.definition(name, options) : undefined;
      const augment = !modern && (mayRunAsTask(session.server.capabilities, tool) || core.options.enforceCapabilities === false);
      const params = {
        name,
        ...(args === undefined ? {} : { arguments: args }),
        ...(augment ? { task: options?.ttlMs === undefined ? {} : { ttl: options.ttlMs } } : {}),
      };
      const answer = await helpers.send(params, name, options);
      const created = createdTask(answer, modern);
      const checkedTool = validate ? tool : undefined;
      if (created === undefined) {
        const result = answer as CallToolResult;
        if (checkedTool !== undefined) helpers.checkOutput(checkedTool, result);
        return finishedTask(result);
      }
      const start = { taskId: created.snapshot.info.taskId, snapshot: created.snapshot, immediateResponse: created.immediateResponse };
      return validated(watchTask(core, start, options), checkedTool, helpers);
    },
    resumeTask(taskId, options) {
      if (typeof taskId !== "string" || taskId === "") throw new TypeError("resumeTask(taskId): taskId must be the non-empty id of a task this client's server made");
      return watchTask(core, { taskId }, options);
    },
  };
}
