/**
 * The channel of a running task, as a request context sees it: the task's abort signal; its
 * requests to the client become input requests (2026-07-28: surfaced by `tasks/get`,
 * answered by `tasks/update`; 2025-11-25: sent on a `tasks/result` stream with the
 * `related-task` `_meta`); `notifications/progress` messages set the task's `statusMessage`.
 * Under 2025-11-25 notifications go to the task's session with the `related-task` `_meta`;
 * under 2026-07-28 a task sends none (ext-tasks: no progress or log on tasks).
 */
import type { JsonRpcParams, RequestContext as PeerRequestContext } from "@proto/jsonrpc";
import { MetaKey, NotificationMethod } from "@proto/mcp-protocol";
import type { LiveTask, TaskRuntime } from "./runtime";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `params` with `_meta["io.modelcontextprotocol/related-task"] = { taskId }`. */
export function withRelatedTask(params: JsonRpcParams | undefined, taskId: string): JsonRpcParams {
  const p = isRecord(params) ? params : {};
  const meta = isRecord(p._meta) ? p._meta : {};
  return { ...p, _meta: { ...meta, [MetaKey.RelatedTask]: { taskId } } } as JsonRpcParams;
}

function statusText(params: JsonRpcParams | undefined): string | undefined {
  if (!isRecord(params)) return undefined;
  if (typeof params.message === "string") return params.message;
  if (typeof params.progress !== "number") return undefined;
  return typeof params.total === "number" ? `${params.progress}/${params.total}` : String(params.progress);
}

/** The task's stand-in for the request's peer context (same id, method and exchange info). */
export function createTaskExchange(rc: PeerRequestContext, live: LiveTask, runtime: TaskRuntime): PeerRequestContext {
  return {
    id: rc.id,
    method: rc.method,
    info: rc.info,
    exchange: rc.exchange,
    inBatch: false,
    signal: live.controller.signal,
    notify(method, params) {
      if (method === NotificationMethod.Progress) {
        const text = statusText(params);
        if (text !== undefined) runtime.status(live, text);
      }
      if (live.modern) return Promise.resolve();
      return live.session.notify(method, withRelatedTask(params, live.id)).catch(() => undefined);
    },
    request(method, params, options) {
      const inputKey = (options as { inputKey?: unknown } | undefined)?.inputKey;
      return runtime.ask(live, method, params, inputKey, options?.signal);
    },
  };
}
