/**
 * Listen fan-out between instances (MCP 2026-07-28 basic/patterns/subscriptions, behind a load
 * balancer): a notification meant for `subscriptions/listen` streams (a resource update, a list
 * change) is delivered to this instance's streams and published, so every other instance
 * delivers it to its own; what this instance published is not delivered twice.
 */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import type { ListenRegistry } from "./listen";

/**
 * Publish/subscribe between the instances of one server definition (`stateless.fanout`). The
 * HTTP transport's `MessageBus` (e.g. from `@proto/redis-stores`) is one: pass it as it is. The
 * `fanout` of `@proto/redis-stores` also has the optional members, and then list changes and
 * resource updates reach the 2025 sessions shared on the store too, once each.
 */
export interface ListenFanout {
  publish(channel: string, message: string): unknown;
  subscribe(channel: string, listener: (message: string) => void): unknown;
  /**
   * Deployment-wide dedupe of list changes: resolves true when `version` (a digest of the list)
   * differs from the last one any instance announced for `topic`. A change every instance makes
   * (the same tool registered everywhere) is then announced once, by the first.
   */
  announce?(topic: string, version: string): unknown;
  /**
   * Delivers a notification to every 2025 session shared on the store whose saved topics include
   * `topic` (a list-change method, or `resource:<uri>`), once each, wherever its GET stream is.
   * The server then leaves its local replicas of shared sessions out of the notification.
   */
  notifySessions?(topic: string, message: { readonly jsonrpc: "2.0"; readonly method: string; readonly params?: JsonRpcParams }): unknown;
}

/** The list-change notifications a shared 2025 session is reached by through `notifySessions` (its topics). */
export const LIST_CHANGED_BY_CAPABILITY = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
} as const;

/** The topic of a resource's subscribers. */
export function resourceTopic(uri: string): string {
  return `resource:${uri}`;
}

/** FNV-1a (32 bits) of `text` with its length: a list's version for `announce`, not a security hash. */
export function listDigest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return `${text.length.toString(36)}.${(hash >>> 0).toString(36)}`;
}

/** The channel listen notifications travel on. */
export const LISTEN_CHANNEL = "listen";

/** Wraps `listens` so `deliver` also reaches the other instances' streams. */
export function withFanout(listens: ListenRegistry, fanout: ListenFanout, logger: Logger): ListenRegistry {
  if (typeof fanout?.publish !== "function" || typeof fanout.subscribe !== "function") {
    throw new TypeError("createServer: stateless.fanout needs publish(channel, message) and subscribe(channel, listener), e.g. a MessageBus from @proto/redis-stores");
  }
  const origin = crypto.randomUUID();
  const fail = (error: unknown): void => logger.warn("listen fan-out between instances failed", error);
  try {
    void Promise.resolve(
      fanout.subscribe(LISTEN_CHANNEL, (text) => {
        try {
          const { from, method, params } = JSON.parse(text) as { from?: unknown; method?: unknown; params?: JsonRpcParams };
          if (from !== origin && typeof method === "string") listens.deliver(method, params);
        } catch (error) {
          fail(error);
        }
      }),
    ).catch(fail);
  } catch (error) {
    fail(error);
  }
  return {
    listen: (params, ctx, capabilities, stdio) => listens.listen(params, ctx, capabilities, stdio),
    allowTasks: (visible) => listens.allowTasks(visible),
    deliver(method, params) {
      listens.deliver(method, params);
      try {
        void Promise.resolve(fanout.publish(LISTEN_CHANNEL, JSON.stringify({ from: origin, method, params }))).catch(fail);
      } catch (error) {
        fail(error);
      }
    },
    closeAll: () => listens.closeAll(),
    get size() {
      return listens.size;
    },
  };
}
