/**
 * `SessionStore.evictOne`, the same rule on Redis (a real redis-server) and in memory: the least
 * recently touched live record of the holder with the most live records (ties: the holder whose
 * oldest record is oldest); deleted and expired records do not count.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionRecord, SessionStore } from "@proto/transport-http";
import { createMemorySessionStore } from "@proto/transport-http";
import type { Daemon } from "../../../test/support/daemons";
import { missingDaemons, startRedis } from "../../../test/support/daemons";
import { createRedisStores } from "./stores";
import type { RedisStores } from "./stores";

const missing = missingDaemons("redis-server");
const limits = { maxSessions: 3, maxSessionsPerPrincipal: undefined, ttlMs: 60_000 };
const record = (id: string, holder: string): SessionRecord => ({ id, principalKey: "", holder, streamPrefix: `p${id}` });

/** The cases, on a fresh store each; `later` lets the store's clock move on (touch order is by ms). */
function cases(fresh: () => Promise<SessionStore>, later: () => Promise<void>): void {
  it("finds nothing in an empty store", async () => {
    expect(await (await fresh()).evictOne?.()).toBeUndefined();
  });

  it("the biggest holder loses its least recently touched record; then ties go to the oldest record", async () => {
    const store = await fresh();
    for (const [id, holder] of [["a1", "A"], ["b1", "B"], ["a2", "A"]] as const) {
      expect(await store.create(record(id, holder), limits)).toBe("created");
      await later();
    }
    expect(await store.get("a1", limits.ttlMs)).toBeDefined();
    await later();
    expect(await store.create(record("c1", "C"), limits)).toBe("full");
    expect(await store.evictOne?.()).toBe("a2");
    expect(await store.get("a2", limits.ttlMs)).toBeUndefined();
    expect(await store.create(record("c1", "C"), limits)).toBe("created");
    await later();
    // A, B and C hold one each: b1 is the least recently touched of all
    expect(await store.evictOne?.()).toBe("b1");
    expect(await store.evictOne?.()).toBe("a1");
  });

  it("deleted records are not counted for their holder", async () => {
    const store = await fresh();
    for (const [id, holder] of [["x1", "X"], ["x2", "X"], ["y1", "Y"]] as const) {
      await store.create(record(id, holder), limits);
      await later();
    }
    await store.delete("x1");
    expect(await store.evictOne?.()).toBe("x2");
  });

  it("a record without a holder is counted under its principal", async () => {
    const store = await fresh();
    await store.create({ id: "p1", principalKey: "alice", streamPrefix: "q1" }, limits);
    await later();
    await store.create({ id: "p2", principalKey: "alice", streamPrefix: "q2" }, limits);
    await later();
    await store.create(record("z1", "Z"), limits);
    expect(await store.evictOne?.()).toBe("p1");
  });
}

describe("evictOne of the in-memory store", () => {
  let now = 0;
  cases(
    () => Promise.resolve(createMemorySessionStore(() => now)),
    () => {
      now += 1;
      return Promise.resolve();
    },
  );
});

describe.skipIf(missing !== undefined)(`evictOne on a real redis-server${missing === undefined ? "" : ` (${missing})`}`, () => {
  let redis: Daemon;
  const opened: RedisStores[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const stores of opened) await stores.close();
    await redis?.stop();
  });
  cases(
    async () => {
      const stores = await createRedisStores({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix: `e${opened.length}:` });
      opened.push(stores);
      return stores.sessions;
    },
    () => new Promise((resolve) => setTimeout(resolve, 3)),
  );
});
