/**
 * `MessageBus` over Redis pub/sub: at most once, in order per publisher, to the instances
 * subscribed at publication time (the semantics the transport expects: it answers what matters
 * from the shared records, and uses the bus only to reach live replicas).
 */
import type { MessageBus } from "@proto/transport-http";
import type { RedisClient } from "./connection";
import { createScript } from "./run-script";
import { ANNOUNCE } from "./scripts";

/** How long an announced version is remembered (a later report of the same version after that is announced again). */
const ANNOUNCED_TTL_MS = 24 * 60 * 60_000;

/** Creates the bus; channels are `<keyPrefix>bus:<channel>`, announced versions `<keyPrefix>av:<topic>`. */
export function createRedisMessageBus(client: RedisClient, subscriber: RedisClient, keyPrefix: string): MessageBus {
  const name = (channel: string): string => `${keyPrefix}bus:${channel}`;
  const announce = createScript(client, ANNOUNCE);
  return {
    announce: async (topic, version) => (await announce([`${keyPrefix}av:${topic}`], [version, String(ANNOUNCED_TTL_MS)])) === 1,
    publish: (channel, message) => client.publish(name(channel), message),
    async subscribe(channel, listener) {
      const own = (message: string): void => listener(message);
      await subscriber.subscribe(name(channel), own);
      return () => subscriber.unsubscribe(name(channel), own);
    },
  };
}
