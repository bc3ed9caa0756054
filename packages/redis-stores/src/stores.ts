/**
 * `createRedisStores`: everything a load-balanced deployment of a Streamable HTTP handler shares,
 * on one Redis: the event store, the session store and the message bus, over two connections.
 */
import type { EventStore, MessageBus, SessionStore } from "@proto/transport-http";
import { connectRedis } from "./connection";
import type { RedisClient, RedisConnectionOptions } from "./connection";
import { createRedisMessageBus } from "./bus";
import { createRedisEventStore } from "./event-store";
import type { RedisEventStoreOptions } from "./event-store";
import { createRedisSessionStore } from "./session-store";

/** Options of `createRedisStores`. */
export interface RedisStoresOptions extends RedisConnectionOptions, RedisEventStoreOptions {
  /** Prefix of every key and channel, so deployments can share one Redis. Default `mcp:`. */
  readonly keyPrefix?: string;
  /** `Retry-After` (s) of the 503 answered while Redis is unreachable. Default 1. */
  readonly retryAfterSeconds?: number;
}

/** The stores of one instance. The caller owns them: `close()` ends the connections (after the handler closed). */
export interface RedisStores {
  readonly eventStore: EventStore;
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  /** Spread into the handler's options: `createNodeHttpHandler({ connect, ...stores.handlerOptions })`. */
  readonly handlerOptions: { readonly eventStore: EventStore; readonly shared: { readonly sessions: SessionStore; readonly bus: MessageBus; readonly retryAfterSeconds: number } };
  /** The command connection (for health checks and tests). */
  readonly client: RedisClient;
  close(): Promise<void>;
}

/** Connects to Redis (rejects when it is unreachable at start) and creates the stores. */
export async function createRedisStores(options: RedisStoresOptions = {}): Promise<RedisStores> {
  const keyPrefix = options.keyPrefix ?? "mcp:";
  if (typeof keyPrefix !== "string") throw new TypeError("keyPrefix must be a string");
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  if (!Number.isInteger(retryAfterSeconds) || retryAfterSeconds < 1) throw new TypeError(`retryAfterSeconds must be a positive integer, got ${String(retryAfterSeconds)}`);
  const { client, subscriber, close } = await connectRedis(options);
  const eventStore = createRedisEventStore(client, subscriber, keyPrefix, options);
  const sessions = createRedisSessionStore(client, keyPrefix);
  const bus = createRedisMessageBus(client, subscriber, keyPrefix);
  return { eventStore, sessions, bus, handlerOptions: { eventStore, shared: { sessions, bus, retryAfterSeconds } }, client, close };
}
