import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoredEvent } from "@proto/transport-http";
import type { Daemon } from "../../../test/support/daemons";
import { missingDaemons, startRedis } from "../../../test/support/daemons";
import { createRedisStores } from "./stores";
import type { RedisStores } from "./stores";

const missing = missingDaemons("redis-server");
const limits = { maxSessions: 3, maxSessionsPerPrincipal: 2, ttlMs: 60_000 };

describe.skipIf(missing !== undefined)(`Redis stores against a real redis-server${missing === undefined ? "" : ` (${missing})`}`, () => {
  let redis: Daemon;
  let stores: RedisStores;
  let other: RedisStores;

  beforeAll(async () => {
    redis = await startRedis();
    stores = await createRedisStores({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix: "t:", maxEventsPerStream: 5, maxBytesPerStream: 2_000 });
    other = await createRedisStores({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix: "t:" });
  });
  afterAll(async () => {
    await stores?.close();
    await other?.close();
    await redis?.stop();
  });

  const note = (n: number) => ({ jsonrpc: "2.0" as const, method: "n", params: { n } });

  it("replays after an id from another connection, in order, without the priming marker", async () => {
    const prime = await stores.eventStore.append("p1.a", undefined);
    const ids = [];
    for (let n = 0; n < 3; n += 1) ids.push(await stores.eventStore.append("p1.a", note(n)));
    const replay = await other.eventStore.replay(prime);
    expect(replay?.streamId).toBe("p1.a");
    expect(replay?.events.map((e) => e.id)).toEqual(ids);
    expect(replay?.ended).toBe(false);
    expect((await other.eventStore.replay(ids[1] as string))?.events.map((e) => e.message)).toEqual([note(2)]);
  });

  it("bounds a stream by count and bytes and refuses a resume over the gap", async () => {
    const first = await stores.eventStore.append("p1.b", note(0));
    const ids = [first];
    for (let n = 1; n < 8; n += 1) ids.push(await stores.eventStore.append("p1.b", note(n)));
    expect(await stores.eventStore.replay(first)).toBeUndefined();
    const kept = await stores.eventStore.replay(ids[2] as string);
    expect(kept?.events.map((e) => (e.message as unknown as { params: { n: number } }).params.n)).toEqual([3, 4, 5, 6, 7]);
    const big = { jsonrpc: "2.0" as const, method: "big", params: { text: "x".repeat(900) } };
    await stores.eventStore.append("p1.c", big);
    await stores.eventStore.append("p1.c", big);
    const last = await stores.eventStore.append("p1.c", big);
    const len = await stores.client.xLen("t:es:p1.c");
    expect(len).toBe(2);
    expect((await stores.eventStore.replay(last))?.events).toEqual([]);
  });

  it("a stream expires with its session: every append sets both of its keys to expire after ttlMs", async () => {
    const short = await createRedisStores({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix: "t:", ttlMs: 5_000 });
    try {
      await short.eventStore.append("p1.ttl", note(1));
      for (const key of ["t:es:p1.ttl", "t:esm:p1.ttl"]) {
        const ttl = await short.client.pTTL(key);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(5_000);
      }
      await short.client.pExpire("t:es:p1.ttl", 100);
      await short.eventStore.append("p1.ttl", note(2));
      expect(await short.client.pTTL("t:es:p1.ttl")).toBeGreaterThan(100);
    } finally {
      await short.close();
    }
  });

  it("refuses malformed and foreign ids", async () => {
    for (const id of ["", "nocolon", "p1.a:", "p1.a:abc", "p1.a:1-2-3", "missing.0:1-0"]) expect(await stores.eventStore.replay(id)).toBeUndefined();
  });

  it("follow delivers appends made by another instance, then the end", async () => {
    const seen: (StoredEvent | undefined)[] = [];
    const stop = await other.eventStore.follow?.("p1.d", (event) => seen.push(event));
    const id = await stores.eventStore.append("p1.d", note(1));
    await stores.eventStore.end?.("p1.d");
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual([{ id, message: note(1) }, undefined]);
    expect((await other.eventStore.replay(id))?.ended).toBe(true);
    stop?.();
  });

  it("session records: caps across instances, principal counting, touch, update, delete", async () => {
    const record = (id: string, principalKey = "anon") => ({ id, principalKey, streamPrefix: `px${id}` });
    expect(await stores.sessions.create(record("s1", "alice"), limits)).toBe("created");
    expect(await other.sessions.create(record("s2", "alice"), limits)).toBe("created");
    expect(await stores.sessions.create(record("s3", "alice"), limits)).toBe("principal-full");
    expect(await stores.sessions.create(record("s3"), { ...limits, maxSessionsPerPrincipal: undefined })).toBe("created");
    expect(await other.sessions.create(record("s4"), { ...limits, maxSessionsPerPrincipal: undefined })).toBe("full");
    await stores.sessions.update("s1", { protocolVersion: "2025-11-25", state: { features: { resources: [] }, empty: {} } });
    expect(await other.sessions.get("s1", 60_000)).toEqual({ ...record("s1", "alice"), protocolVersion: "2025-11-25", state: { features: { resources: [] }, empty: {} } });
    await other.sessions.delete("s1");
    expect(await stores.sessions.get("s1", 60_000)).toBeUndefined();
    expect(await stores.sessions.create(record("s5", "alice"), limits)).toBe("created");
    await stores.sessions.update("gone", { state: {} });
    expect(await stores.sessions.get("gone", 60_000)).toBeUndefined();
  });

  it("records expire after their idle TTL unless touched", async () => {
    expect(await stores.sessions.create({ id: "short", principalKey: "anon", streamPrefix: "x" }, { maxSessions: 100, maxSessionsPerPrincipal: undefined, ttlMs: 150 })).toBe("created");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await stores.sessions.get("short", 150)).toBeUndefined();
  });

  it("topics: members by topic across instances, replaced by update, gone with delete", async () => {
    const record = (id: string) => ({ id, principalKey: "anon", streamPrefix: `pf${id}` });
    const open = { maxSessions: 100, maxSessionsPerPrincipal: undefined, ttlMs: 60_000 };
    expect(await stores.sessions.create(record("t1"), open)).toBe("created");
    expect(await stores.sessions.create(record("t2"), open)).toBe("created");
    await stores.sessions.update("t1", { topics: ["resource:x", "list"] });
    await other.sessions.update("t2", { state: {}, topics: ["resource:x"] });
    expect((await other.sessions.members("resource:x", 10)).map((m) => m.id).sort()).toEqual(["t1", "t2"]);
    expect(await other.sessions.members("list", 10)).toEqual([{ id: "t1", streamPrefix: "pft1" }]);
    expect(await other.sessions.members("resource:x", 1)).toHaveLength(1);
    await stores.sessions.update("t1", { topics: ["list"] });
    expect((await other.sessions.members("resource:x", 10)).map((m) => m.id)).toEqual(["t2"]);
    await stores.sessions.delete("t2");
    expect(await other.sessions.members("resource:x", 10)).toEqual([]);
    expect(await stores.client.exists("t:st:t2")).toBe(0);
  });

  it("announce: one instance announces each version of a topic", async () => {
    expect(await stores.bus.announce?.("tools", "v1")).toBe(true);
    expect(await other.bus.announce?.("tools", "v1")).toBe(false);
    expect(await other.bus.announce?.("tools", "v2")).toBe(true);
    expect(await stores.bus.announce?.("tools", "v1")).toBe(true);
  });

  it("the journal: a dead instance's entries are claimed once, with their outbound ids; a live one's are not", async () => {
    const journal = stores.journal;
    const peer = other.journal;
    if (journal === undefined || peer === undefined) throw new Error("journal expected");
    const request = { jsonrpc: "2.0" as const, id: 7, method: "tools/call", params: { name: "x", arguments: { list: [] } } };
    await journal.heartbeat("dead", 200);
    await journal.heartbeat("alive", 60_000);
    await journal.begin("dead", { sessionId: "s", streamId: "p.a1", request, outbound: [], attempts: 0 });
    await journal.begin("dead", { sessionId: "s", streamId: "p.a2", request, outbound: [], attempts: 0 });
    await journal.end("dead", "p.a2");
    await journal.outbound("dead", "p.a1", "tag~1");
    await journal.outbound("dead", "p.a1", "tag~2");
    await journal.begin("alive", { sessionId: "s", streamId: "p.b1", request, outbound: [], attempts: 0 });
    expect(await peer.takeOver("survivor")).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const [claimed, again] = await Promise.all([peer.takeOver("survivor"), journal.takeOver("other-survivor")]);
    expect([...claimed, ...again]).toEqual([{ sessionId: "s", streamId: "p.a1", request, outbound: ["tag~1", "tag~2"], attempts: 0 }]);
    expect(await peer.takeOver("survivor")).toEqual([]);
  });

  it("an ended stream takes no more events (a late answer of an instance presumed dead is refused)", async () => {
    await stores.eventStore.append("p1.e", note(1));
    await stores.eventStore.end?.("p1.e");
    await expect(Promise.resolve(other.eventStore.append("p1.e", note(2)))).rejects.toThrow(/ENDED/);
  });

  it("the bus delivers to subscribers of other instances and counts them", async () => {
    const got: string[] = [];
    const stop = await other.bus.subscribe("c1", (m) => got.push(m));
    expect(await stores.bus.publish("c1", "hello")).toBe(1);
    await expect.poll(() => got).toEqual(["hello"]);
    await stop();
    expect(await stores.bus.publish("c1", "nobody")).toBe(0);
  });
});
