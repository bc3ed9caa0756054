/**
 * The Redis connections one instance uses: a command client and a subscriber (Redis pub/sub needs
 * a connection of its own), both with the offline queue disabled, so a command issued while Redis
 * is unreachable rejects at once instead of waiting in an unbounded queue, and reconnecting with a
 * capped backoff, so the stores recover by themselves when Redis returns.
 */
import type { Logger } from "@proto/jsonrpc";
import { createClient } from "@redis/client";

/** Attempts at the first connection before `connectRedis` rejects (later outages are retried forever). */
const FIRST_ATTEMPTS = 3;

function newClient(url: string, connectTimeout: number, maxDelay: number, everReady: () => boolean) {
  return createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout,
      reconnectStrategy: (retries: number, cause: Error) => {
        if (!everReady() && retries >= FIRST_ATTEMPTS) return new Error(`Redis at ${url} is unreachable: ${cause.message}`, { cause });
        return Math.min(50 * 2 ** Math.min(retries, 10), maxDelay);
      },
    },
  });
}

/** A node-redis client as the stores use it (RESP3, no modules). */
export type RedisClient = ReturnType<typeof newClient>;

/** Options of the connections. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]`. Default `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** Longest wait between reconnection attempts (ms). Default 1,000. */
  readonly maxReconnectDelayMs?: number;
  /** Connection timeout (ms); a command never waits for a connection. Default 2,000. */
  readonly connectTimeoutMs?: number;
  /** Receives connection errors (each outage is reported once, then its recovery). Default: discard. */
  readonly logger?: Logger;
}

/** The two connections. `close` ends both. */
export interface RedisConnections {
  readonly client: RedisClient;
  readonly subscriber: RedisClient;
  close(): Promise<void>;
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`${name} must be a positive number of ms, got ${String(value)}`);
  return value;
}

/** Connects both clients; rejects when Redis cannot be reached at start (later outages are survived). */
export async function connectRedis(options: RedisConnectionOptions = {}): Promise<RedisConnections> {
  const maxDelay = positive(options.maxReconnectDelayMs, 1_000, "maxReconnectDelayMs");
  const connectTimeout = positive(options.connectTimeoutMs, 2_000, "connectTimeoutMs");
  let ready = false;
  const client = newClient(options.url ?? "redis://127.0.0.1:6379", connectTimeout, maxDelay, () => ready);
  const subscriber = client.duplicate();
  for (const [name, c] of [["command", client], ["subscriber", subscriber]] as const) {
    let down = false;
    c.on("error", (error: unknown) => {
      if (down) return;
      down = true;
      options.logger?.warn(`Redis ${name} connection failed; retrying`, error);
    });
    c.on("ready", () => {
      if (!down) return;
      down = false;
      options.logger?.info?.(`Redis ${name} connection is back`);
    });
  }
  await Promise.all([client.connect(), subscriber.connect()]).catch(async (error: unknown) => {
    client.destroy();
    subscriber.destroy();
    throw error;
  });
  ready = true;
  return {
    client,
    subscriber,
    async close() {
      await Promise.allSettled([client.close(), subscriber.close()]);
    },
  };
}
