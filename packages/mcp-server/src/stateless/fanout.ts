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
 * HTTP transport's `MessageBus` (e.g. from `@proto/redis-stores`) is one: pass it as it is.
 */
export interface ListenFanout {
  publish(channel: string, message: string): unknown;
  subscribe(channel: string, listener: (message: string) => void): unknown;
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
