/**
 * `tools/call` as a task (MCP 2025-11-25 basic/utilities/tasks "Tool-Level Negotiation"; the
 * tasks extension "Task Creation"). The same handler serves a plain call or a task:
 * - 2025-11-25: a call with `params.task` to a tool whose `execution.taskSupport` is
 *   `"optional"` or `"required"` becomes a task; `"required"` without `params.task` and
 *   `params.task` on a `"forbidden"` tool are -32601.
 * - 2026-07-28: the server decides; a request declaring `io.modelcontextprotocol/tasks` gets a
 *   task for an `"optional"` or `"required"` tool, one without it a plain result (`"optional"`)
 *   or -32021 naming the extension (`"required"`). A legacy `params.task` is ignored.
 * The task is created when the call arrives, or, for a tool registered with
 * `taskStart: "handler"`, when the handler calls `ctx.startTask()` (its earlier input goes the
 * plain way: MRTR rounds before the task, ext-tasks "Do MRTR before creating a task").
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, RequestContext as PeerRequestContext } from "@proto/jsonrpc";
import { createMissingCapabilityError, isModernProtocolVersion, TASK_RESULT_TYPE, TASKS_EXTENSION } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import { peerContextOf, retarget, setTaskStarter } from "../session-context";
import { createTaskExchange } from "./exchange";
import type { LiveTask, TaskRuntime } from "./runtime";
import type { TaskRecord } from "./store";
import { legacyTask, modernTask } from "./wire";

/** How a tool takes part in tasks. */
export interface TaskMode {
  readonly support: "forbidden" | "optional" | "required";
  readonly start: "call" | "handler";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function created(record: TaskRecord, modern: boolean): unknown {
  return modern ? { resultType: TASK_RESULT_TYPE, ...modernTask(record) } : { task: legacyTask(record) };
}

/** True when this call may (must) become a task; throws the era's refusal otherwise. */
function wantsTask(params: Record<string, unknown>, ctx: RequestContext, mode: TaskMode): boolean {
  const name = String(params.name);
  if (isModernProtocolVersion(ctx.protocolVersion)) {
    if (mode.support === "forbidden") return false;
    if (ctx.extension(TASKS_EXTENSION) !== undefined) return true;
    if (mode.support === "optional") return false;
    throw createMissingCapabilityError(
      { extensions: { [TASKS_EXTENSION]: {} } },
      `Tool "${name}" runs only as a task: declare the ${TASKS_EXTENSION} extension in _meta["io.modelcontextprotocol/clientCapabilities"].extensions and retry`,
    );
  }
  const asked = isRecord(params.task);
  if (asked && mode.support === "forbidden") throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Tool "${name}" does not run as a task: call it without params.task`);
  if (!asked && mode.support === "required") throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Tool "${name}" runs only as a task: call it with params.task (capabilities.tasks.requests.tools.call)`);
  return asked;
}

/** Creates the `tools/call` wrapper of the tasks feature. */
export function createTaskCalls(runtime: TaskRuntime, modeOf: (name: string) => TaskMode | undefined) {
  async function begin(ctx: RequestContext, rc: PeerRequestContext, ttl: unknown): Promise<{ record: TaskRecord; live: LiveTask }> {
    const made = await runtime.create(ctx, ttl);
    retarget(ctx, createTaskExchange(rc, made.live, runtime), made.record.taskId);
    return made;
  }

  function detach(live: LiveTask, work: Promise<unknown>): void {
    work.then(
      (result) => runtime.settle(live, { result }),
      (error: unknown) => runtime.settle(live, { error }),
    );
  }

  /** A task made when the handler asks for it; until then a plain call. */
  function deferred(ctx: RequestContext, rc: PeerRequestContext, ttl: unknown, modern: boolean, run: (ctx: RequestContext) => unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let started: Promise<{ record: TaskRecord; live: LiveTask }> | undefined;
      setTaskStarter(ctx, () => {
        started ??= begin(ctx, rc, ttl).then((made) => (resolve(created(made.record, modern)), made));
        return started.then(() => true, (error: unknown) => (reject(error), Promise.reject(error)));
      });
      const work = Promise.resolve().then(() => run(ctx));
      work.then(
        async (result) => {
          if (started !== undefined) return void runtime.settle((await started).live, { result });
          if (modern) return resolve(result);
          const made = await begin(ctx, rc, ttl);
          resolve(created(made.record, false));
          await runtime.settle(made.live, { result });
        },
        async (error: unknown) => {
          if (started === undefined) return reject(error);
          await runtime.settle((await started).live, { error });
        },
      ).catch(reject);
    });
  }

  return function call(params: JsonRpcParams | undefined, ctx: RequestContext, run: (ctx: RequestContext) => unknown): unknown {
    const p = isRecord(params) ? params : undefined;
    const mode = p !== undefined && typeof p.name === "string" ? modeOf(p.name) : undefined;
    if (p === undefined || mode === undefined || !wantsTask(p, ctx, mode)) return run(ctx);
    const modern = isModernProtocolVersion(ctx.protocolVersion);
    const ttl = modern || !isRecord(p.task) ? undefined : p.task.ttl;
    const rc = peerContextOf(ctx);
    if (mode.start === "handler") return deferred(ctx, rc, ttl, modern, run);
    return begin(ctx, rc, ttl).then(({ record, live }) => {
      detach(live, Promise.resolve().then(() => run(ctx)));
      return created(record, modern);
    });
  };
}
