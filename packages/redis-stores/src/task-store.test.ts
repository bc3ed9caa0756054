import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Daemon } from "../../../test/support/daemons";
import { missingDaemons, startRedis } from "../../../test/support/daemons";
import { describeTaskStoreContract } from "../../mcp-server/src/tasks/store-contract";
import { connectRedis } from "./connection";
import type { RedisConnections } from "./connection";
import { createRedisTaskStore } from "./task-store";

const missing = missingDaemons("redis-server");
let redis: Daemon | undefined;
let prefixes = 0;

describe.skipIf(missing !== undefined)(`the Redis task store against a real redis-server${missing === undefined ? "" : ` (${missing})`}`, () => {
  let connections: RedisConnections;
  beforeAll(async () => {
    redis = await startRedis();
    connections = await connectRedis({ url: `redis://127.0.0.1:${redis.port}` });
  });
  afterAll(async () => {
    await connections?.close();
    await redis?.stop();
  });

  describeTaskStoreContract(
    "Redis",
    ({ maxTasks }) => {
      const store = createRedisTaskStore(connections.client, { keyPrefix: `c${++prefixes}:`, maxTasks });
      return Promise.resolve({ store, now: () => Date.now(), advance: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) });
    },
    { ttlMs: 300, leaseMs: 400 },
  );

  it("keeps the whole task in its own keys, expiring with the task's TTL", async () => {
    const store = createRedisTaskStore(connections.client, { keyPrefix: "k:" });
    const at = Date.now();
    await store.create({ taskId: "a", owner: "session:s", method: "tools/call", status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: 60_000, pollIntervalMs: 5 }, 1000);
    await store.update("a", { status: "input_required", inputRequests: { k: { method: "roots/list" } } });
    const ttl = await connections.client.pTTL("k:task:t:a");
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await connections.client.pTTL("k:task:t:a:in")).toBeGreaterThan(0);
    await store.delete("a");
    expect(await connections.client.keys("k:task:*")).toEqual([]);
  });

  it("says what to do with bad options", () => {
    expect(() => createRedisTaskStore(connections.client, { maxTasks: 0 })).toThrow(/positive integer/);
    expect(() => createRedisTaskStore(connections.client, { keyPrefix: 3 as unknown as string })).toThrow(/keyPrefix/);
  });
});
