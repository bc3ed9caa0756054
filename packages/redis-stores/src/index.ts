export { createRedisStores } from "./stores";
export type { RedisFanout, RedisSharedOptions, RedisStores, RedisStoresOptions } from "./stores";
export { connectRedis } from "./connection";
export type { RedisClient, RedisConnections, RedisConnectionOptions } from "./connection";
export { createRedisEventStore } from "./event-store";
export type { RedisEventStoreOptions } from "./event-store";
export { createRedisSessionStore } from "./session-store";
export { createRedisMessageBus } from "./bus";
export { createRedisRequestJournal } from "./journal";
