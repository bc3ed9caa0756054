/**
 * `MessageBus` over Redis pub/sub: at most once, in order per publisher, to the instances
 * subscribed at publication time (the semantics the transport expects: it answers what matters
 * from the shared records, and uses the bus only to reach live replicas).
 */
import type { MessageBus } from "@proto/transport-http";
import type { RedisClient } from "./connection";

/** Creates the bus; channels are `<keyPrefix>bus:<channel>`. */
export function createRedisMessageBus(client: RedisClient, subscriber: RedisClient, keyPrefix: string): MessageBus {
  const name = (channel: string): string => `${keyPrefix}bus:${channel}`;
  return {
    publish: (channel, message) => client.publish(name(channel), message),
    async subscribe(channel, listener) {
      const own = (message: string): void => listener(message);
      await subscriber.subscribe(name(channel), own);
      return () => subscriber.unsubscribe(name(channel), own);
    },
  };
}
