/**
 * `createRedisStores`: everything a load-balanced deployment of a Streamable HTTP handler shares,
 * on one Redis: the event store, the session store and the message bus, over two connections.
 */
import type { EventStore, MessageBus, RequestJournal, SessionNotifier, SessionStore } from "@proto/transport-http";
import { createSessionNotifier } from "@proto/transport-http";
import { connectRedis } from "./connection";
import type { RedisClient, RedisConnectionOptions } from "./connection";
import { createRedisMessageBus } from "./bus";
import { createRedisEventStore } from "./event-store";
import { createRedisRequestJournal } from "./journal";
import type { RedisEventStoreOptions } from "./event-store";
import { createRedisSessionStore } from "./session-store";

/** Options of `createRedisStores`. */
export interface RedisStoresOptions extends RedisConnectionOptions, RedisEventStoreOptions {
  /** Prefix of every key and channel, so deployments can share one Redis. Default `mcp:`. */
  readonly keyPrefix?: string;
  /** `Retry-After` (s) of the 503 answered while Redis is unreachable. Default 1. */
  readonly retryAfterSeconds?: number;
  /**
   * Journal the requests each instance executes, so a survivor answers those of a dead instance
   * (handler option `shared.journal`). Default true.
   */
  readonly journal?: boolean;
  /** The handler's `sessionIdleTtlMs` (topic keys live as long as their sessions). Default 30 minutes. */
  readonly sessionIdleTtlMs?: number;
}

/** Pass as the server's `stateless.fanout`: 2026 listen streams of every instance, and the 2025 sessions on Redis by topic. */
export type RedisFanout = MessageBus & SessionNotifier;

/** The handler's `shared` option as the stores fill it. */
export interface RedisSharedOptions {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  readonly retryAfterSeconds: number;
  readonly journal?: RequestJournal;
}

/** The stores of one instance. The caller owns them: `close()` ends the connections (after the handler closed). */
export interface RedisStores {
  readonly eventStore: EventStore;
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  /** The request journal (undefined with `journal: false`). */
  readonly journal: RequestJournal | undefined;
  /** The server's `stateless.fanout`: `createServer(info, { stateless: { fanout: stores.fanout } })`. */
  readonly fanout: RedisFanout;
  /**
   * Spread into the handler's options: `createNodeHttpHandler({ connect, ...stores.handlerOptions })`;
   * add `repeatable` to `shared` to have survivors run again the tool calls safe to repeat.
   */
  readonly handlerOptions: { readonly eventStore: EventStore; readonly shared: RedisSharedOptions };
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
  const sessions = createRedisSessionStore(client, keyPrefix, options.sessionIdleTtlMs);
  const bus = createRedisMessageBus(client, subscriber, keyPrefix);
  const journal = options.journal === false ? undefined : createRedisRequestJournal(client, keyPrefix);
  const { notifySessions } = createSessionNotifier({ sessions, bus, eventStore });
  const fanout: RedisFanout = { publish: bus.publish, subscribe: bus.subscribe, announce: bus.announce, notifySessions };
  const shared: RedisSharedOptions = journal === undefined ? { sessions, bus, retryAfterSeconds } : { sessions, bus, retryAfterSeconds, journal };
  return { eventStore, sessions, bus, journal, fanout, handlerOptions: { eventStore, shared }, client, close };
}
