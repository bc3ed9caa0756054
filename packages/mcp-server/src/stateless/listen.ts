/**
 * `subscriptions/listen` (MCP 2026-07-28 basic/patterns/subscriptions): the acknowledgement
 * first (the honoured subset of what was asked), then only the notifications asked for, each
 * with `_meta["io.modelcontextprotocol/subscriptionId"]` = the listen request's id, on that
 * request's stream. The client ends a listen by cancelling it (stdio) or closing the stream
 * (HTTP); the server ends them all gracefully on `close()` with the result (and, on stdio,
 * `notifications/cancelled` after it).
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcId, JsonRpcParams } from "@proto/jsonrpc";
import { createMissingCapabilityError, MetaKey, NotificationMethod, ResultType, TASKS_EXTENSION } from "@proto/mcp-protocol";
import type { ServerCapabilities, SubscriptionFilter, SubscriptionsListenResult } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";

/** The listen streams of one server. */
export interface ListenRegistry {
  /** Serves one `subscriptions/listen`; settles when it ends. */
  listen(params: JsonRpcParams | undefined, ctx: RequestContext, capabilities: ServerCapabilities, stdio: boolean): Promise<unknown>;
  /** Delivers a server notification to the streams that asked for it. */
  deliver(method: string, params?: JsonRpcParams): void;
  /**
   * Lets listens ask for `notifications/tasks` (`notifications.taskIds`, the tasks extension):
   * `visible` keeps the ids the caller may see. Without it `taskIds` are not honoured.
   */
  allowTasks(visible: (taskIds: readonly string[], ctx: RequestContext) => Promise<readonly string[]>): void;
  /** Ends every stream gracefully; resolves once their results are handed to the transports. */
  closeAll(): Promise<void>;
  readonly size: number;
}

interface Listener {
  readonly id: JsonRpcId;
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  readonly taskIds: ReadonlySet<string>;
  readonly ctx: RequestContext;
  end(): void;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readFilter(params: JsonRpcParams | undefined): SubscriptionFilter {
  const n = isRecord(params) ? params.notifications : undefined;
  if (!isRecord(n)) throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: subscriptions/listen needs params.notifications (an object of the types wanted)");
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) {
    if (n[key] !== undefined && typeof n[key] !== "boolean") throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Invalid params: notifications.${key} must be a boolean`);
  }
  const uris = n.resourceSubscriptions;
  if (uris !== undefined && !(Array.isArray(uris) && uris.length <= 1024 && uris.every((u) => typeof u === "string"))) {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: notifications.resourceSubscriptions must be an array of at most 1024 URIs");
  }
  const tasks = n.taskIds;
  if (tasks !== undefined && !(Array.isArray(tasks) && tasks.length <= 1024 && tasks.every((t) => typeof t === "string"))) {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, "Invalid params: notifications.taskIds must be an array of at most 1024 task ids");
  }
  return n as SubscriptionFilter;
}

/** The subset of `asked` this server honours (types it has no capability for are left out). */
export function honoured(asked: SubscriptionFilter, caps: ServerCapabilities): SubscriptionFilter {
  const out: { -readonly [K in keyof SubscriptionFilter]: SubscriptionFilter[K] } = {};
  if (asked.toolsListChanged === true && caps.tools?.listChanged === true) out.toolsListChanged = true;
  if (asked.promptsListChanged === true && caps.prompts?.listChanged === true) out.promptsListChanged = true;
  if (asked.resourcesListChanged === true && caps.resources?.listChanged === true) out.resourcesListChanged = true;
  if (asked.resourceSubscriptions !== undefined && caps.resources?.subscribe === true) out.resourceSubscriptions = [...asked.resourceSubscriptions];
  return out;
}

function wants(listener: Listener, method: string, params: JsonRpcParams | undefined): boolean {
  const f = listener.filter;
  switch (method) {
    case NotificationMethod.ToolListChanged:
      return f.toolsListChanged === true;
    case NotificationMethod.PromptListChanged:
      return f.promptsListChanged === true;
    case NotificationMethod.ResourceListChanged:
      return f.resourcesListChanged === true;
    case NotificationMethod.Tasks: {
      const taskId = isRecord(params) ? params.taskId : undefined;
      return typeof taskId === "string" && listener.taskIds.has(taskId);
    }
    case NotificationMethod.ResourceUpdated: {
      const uri = isRecord(params) ? params.uri : undefined;
      return typeof uri === "string" && listener.uris.has(uri);
    }
    default:
      return false;
  }
}

/** Creates the registry; at most `max` streams at once (beyond: -32603). */
export function createListenRegistry(max = 1024): ListenRegistry {
  const listeners = new Set<Listener>();
  let visibleTasks: ((taskIds: readonly string[], ctx: RequestContext) => Promise<readonly string[]>) | undefined;

  /** The honoured filter, with the task ids the caller may see when it asked for some. */
  async function accept(params: JsonRpcParams | undefined, ctx: RequestContext, capabilities: ServerCapabilities): Promise<SubscriptionFilter> {
    const asked = readFilter(params);
    const filter = honoured(asked, capabilities);
    if (asked.taskIds === undefined || asked.taskIds.length === 0 || visibleTasks === undefined) return filter;
    if (ctx.extension(TASKS_EXTENSION) === undefined) {
      throw createMissingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } }, `notifications.taskIds needs the ${TASKS_EXTENSION} extension declared on the listen request`);
    }
    return { ...filter, taskIds: [...(await visibleTasks(asked.taskIds, ctx))] };
  }

  return {
    allowTasks(visible) {
      visibleTasks = visible;
    },
    async listen(params, ctx, capabilities, stdio) {
      const filter = await accept(params, ctx, capabilities);
      if (listeners.size >= max) throw new JsonRpcError(JsonRpcErrorCode.InternalError, `too many subscriptions/listen streams (${max}); close one and retry`);
      const id = ctx.requestId;
      const tag = { [MetaKey.SubscriptionId]: id };
      return new Promise((resolve) => {
        const listener: Listener = {
          id,
          filter,
          uris: new Set(filter.resourceSubscriptions ?? []),
          taskIds: new Set(filter.taskIds ?? []),
          ctx,
          end() {
            listeners.delete(listener);
            const result: SubscriptionsListenResult = { resultType: ResultType.Complete, _meta: tag };
            resolve(result);
            if (stdio) queueMicrotask(() => void ctx.notify(NotificationMethod.Cancelled, { requestId: id, reason: "the server closed the subscription" }).catch(() => undefined));
          },
        };
        ctx.signal.addEventListener("abort", () => (listeners.delete(listener), resolve(undefined)), { once: true });
        listeners.add(listener);
        void ctx.notify(NotificationMethod.SubscriptionsAcknowledged, { _meta: tag, notifications: filter } as unknown as JsonRpcParams).catch(() => undefined);
      });
    },
    deliver(method, params) {
      for (const listener of listeners) {
        if (!wants(listener, method, params)) continue;
        const meta = isRecord(params) && isRecord(params._meta) ? params._meta : {};
        const tagged = { ...(isRecord(params) ? params : {}), _meta: { ...meta, [MetaKey.SubscriptionId]: listener.id } };
        void listener.ctx.notify(method, tagged as JsonRpcParams).catch(() => undefined);
      }
    },
    async closeAll() {
      for (const listener of [...listeners]) listener.end();
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    get size() {
      return listeners.size;
    },
  };
}
