/**
 * Three instances behind HAProxy round-robin (no stickiness) on one Redis (issue 19): a 2025
 * session served by all three, a tool sampling the client while the client's response lands on
 * another instance, a resource subscription served by one and updated from another, a stream
 * resumed across instances while the instance holding it is killed (chaos), Redis restarted under
 * load. Needs `redis-server` and `haproxy` (Debian packages; `.ci/run` installs them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingDaemons } from "../support/daemons";
import { envelope, post, standardHeaders } from "../support/modern-http";
import type { Cluster, Message } from "./rig";
import { chaosRound } from "./chaos";
import { rawSession, readResuming, readSse, resultText, startCluster } from "./rig";

const missing = missingDaemons("redis-server", "haproxy");

describe.skipIf(missing !== undefined)(`three instances behind HAProxy on Redis${missing === undefined ? "" : ` (${missing})`}`, () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ env: { CLOSE_SSE_AFTER_MS: "150" } });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);

  it("serves one 2025 session on all three instances", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    const answered = new Set<string>();
    const named = new Set<string>();
    for (let i = 1; i <= 6; i += 1) {
      const { instance, messages } = await session.call(i, "tools/call", { name: "whoami", arguments: {} });
      answered.add(instance);
      named.add(resultText(messages.at(-1)));
    }
    expect([...answered].sort()).toEqual(["a", "b", "c"]);
    expect([...named].sort()).toEqual(["a", "b", "c"]);
    const listed = await session.call(7, "tools/list");
    expect((listed.messages[0]?.result?.tools as unknown[]).length).toBe(7);
  });

  it("routes the client's answer to a sampling request to the instance whose tool waits for it", async () => {
    const session = rawSession(cluster.url);
    await session.initialize({ sampling: {} });
    const response = await session.post({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {} } });
    const executor = response.headers.get("x-instance");
    let lastId: string | undefined;
    let request: Message | undefined;
    for await (const event of readSse(response)) {
      lastId = event.id ?? lastId;
      if (event.data === "") continue;
      request = JSON.parse(event.data) as Message;
      break;
    }
    expect(request?.method).toBe("sampling/createMessage");
    const answer = await session.post({ jsonrpc: "2.0", id: request?.id, result: { role: "assistant", content: { type: "text", text: "pong" }, model: "m" } });
    expect(answer.status).toBe(202);
    expect(answer.headers.get("x-instance")).not.toBe(executor);
    // the POST's stream was closed for polling: the result comes on a resume, from whichever instance
    const resumed = await session.get(lastId);
    const messages: Message[] = [];
    for await (const event of readSse(resumed)) if (event.data !== "") messages.push(JSON.parse(event.data) as Message);
    expect(resultText(messages.find((m) => m.id === 1))).toBe(`${executor} got pong`);
  });

  it("delivers a resource update made on one instance to the GET stream held by another, once", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    const stream = await session.get();
    const holder = stream.headers.get("x-instance");
    const subscribed = await session.call(1, "resources/subscribe", { uri: "test://watched" });
    expect(subscribed.messages[0]?.result).toEqual({});
    // round-robin: once the holder answered, the next request goes to another instance
    for (let id = 2, last = subscribed.instance; last !== holder; id += 1) last = (await session.call(id, "tools/call", { name: "whoami", arguments: {} })).instance;
    const touched = await session.call(10, "tools/call", { name: "touch", arguments: { uri: "test://watched" } });
    expect(touched.instance).not.toBe(holder);
    expect(resultText(touched.messages.at(-1))).toBe(`${touched.instance} notified 1`);
    const updates = await readResuming(session, stream, (messages) => messages.length >= 1);
    expect(updates).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched" } }]);
    // nothing else follows on the GET stream (no duplicate from another replica)
    await session.call(11, "tools/call", { name: "whoami", arguments: {} });
    const more = await session.get();
    const extra: Message[] = [];
    const reading = (async () => {
      for await (const event of readSse(more)) if (event.data !== "") extra.push(JSON.parse(event.data) as Message);
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await more.body?.cancel().catch(() => undefined);
    await reading;
    expect(extra).toEqual([]);
  });

  it("chaos: killing the instance that carries a client's stream mid-call loses nothing and duplicates nothing", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    const rounds = [];
    for (let round = 1; round <= 3; round += 1) rounds.push(await chaosRound(cluster, session, 100 + round));
    for (const round of rounds) {
      if (round.duplicates > 0 || round.progress.length !== 20) throw new Error(`round went wrong: ${JSON.stringify(round, null, 1)}`);
      expect(round.progress).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(round.results).toBe(1);
      expect(round.duplicates).toBe(0);
    }
    expect(rounds.filter((r) => r.killed !== undefined).length).toBeGreaterThan(0);
  }, 120_000);

  it("Redis restarted under load: clear 503s with Retry-After during the gap, the same session served after", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    await session.call(1, "tools/call", { name: "whoami", arguments: {} });
    await cluster.redis.kill();
    const gap: { status: number; retryAfter: string | null; body: string }[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await session.post({ jsonrpc: "2.0", id: 10 + i, method: "tools/call", params: { name: "whoami", arguments: {} } });
      gap.push({ status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() });
    }
    for (const answer of gap) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe("1");
      expect(answer.body).toMatch(/shared session store is unavailable/);
    }
    const fresh = await rawSession(cluster.url).post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    expect(fresh.status).toBe(503);
    await fresh.text();
    await cluster.redis.start();
    // each instance reconnects on its own backoff (at most maxReconnectDelayMs), and HAProxy takes an
    // instance back only after a passing health check: recovered once every instance has answered 200
    const recovered = new Set<string>();
    for (let attempt = 0; attempt < 150 && recovered.size < 3; attempt += 1) {
      const response = await session.post({ jsonrpc: "2.0", id: 50 + attempt, method: "tools/call", params: { name: "whoami", arguments: {} } });
      if (response.status === 200) recovered.add(response.headers.get("x-instance") ?? "?");
      await response.text();
      if (response.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect([...recovered].sort()).toEqual(["a", "b", "c"]);
    const after = new Set<string>();
    for (let i = 0; i < 9; i += 1) after.add((await session.call(200 + i, "tools/call", { name: "whoami", arguments: {} })).instance);
    expect([...after].sort()).toEqual(["a", "b", "c"]);
    await rawSession(cluster.url).initialize();
  }, 60_000);

  it("Redis killed while 4 clients call in a loop: every answer is 200 or a 503 with Retry-After (none fails otherwise), and every client is served again after", async () => {
    const sessions = [];
    for (let i = 0; i < 4; i += 1) {
      const session = rawSession(cluster.url);
      await session.initialize();
      sessions.push(session);
    }
    const phase = { now: "before" as "before" | "gap" | "after" };
    const seen: { phase: string; status: number; retryAfter: string | null; body: string }[] = [];
    let stop = false;
    const servedAfter = new Set<number>();
    const loops = sessions.map(async (session, index) => {
      for (let id = 1; !stop; id += 1) {
        const response = await session.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "whoami", arguments: {} } });
        seen.push({ phase: phase.now, status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text() });
        if (phase.now === "after" && response.status === 200) servedAfter.add(index);
        if (response.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    phase.now = "gap";
    await cluster.redis.kill();
    await new Promise((resolve) => setTimeout(resolve, 800));
    await cluster.redis.start();
    phase.now = "after";
    for (let wait = 0; wait < 200 && servedAfter.size < sessions.length; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    stop = true;
    await Promise.all(loops);
    const odd = seen.filter((answer) => !(answer.status === 200 || (answer.status === 503 && answer.retryAfter === "1" && /shared session store is unavailable/.test(answer.body))));
    expect(odd).toEqual([]);
    expect(seen.filter((answer) => answer.phase === "before" && answer.status === 200).length).toBeGreaterThan(0);
    expect(seen.filter((answer) => answer.phase === "gap" && answer.status === 503).length).toBeGreaterThan(0);
    expect([...servedAfter].sort()).toEqual([0, 1, 2, 3]);
  }, 60_000);

  it("2026-07-28: MRTR rounds answered on different instances (shared requestState keys)", async () => {
    const env = envelope({ elicitation: { form: {} } });
    const first = await post(cluster.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "confirm", arguments: {}, ...env } });
    const asked = first.last?.result as { resultType: string; inputRequests: Record<string, unknown>; requestState: string };
    expect(asked.resultType).toBe("input_required");
    const [key] = Object.keys(asked.inputRequests);
    const retry = await post(cluster.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "confirm", arguments: {}, ...env, inputResponses: { [key as string]: { action: "accept", content: { ok: true } } }, requestState: asked.requestState } });
    expect(retry.headers.get("x-instance")).not.toBe(first.headers.get("x-instance"));
    expect(retry.last?.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: `${retry.headers.get("x-instance")} heard accept` }] });
  });

  it("2026-07-28: one resource update reaches the listen stream of every instance once", async () => {
    const listens: { instance: string | null; events: AsyncGenerator<{ data: string }>; response: Response }[] = [];
    for (let i = 0; i < 12 && listens.length < 3; i += 1) {
      const params = { ...envelope(), notifications: { resourceSubscriptions: ["test://watched"] } };
      const response = await fetch(cluster.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...standardHeaders("subscriptions/listen", params) },
        body: JSON.stringify({ jsonrpc: "2.0", id: `listen-${i}`, method: "subscriptions/listen", params }),
      });
      expect(response.status).toBe(200);
      const instance = response.headers.get("x-instance");
      if (listens.some((l) => l.instance === instance)) {
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      const events = readSse(response);
      const ack = await events.next();
      expect(JSON.parse((ack.value as { data: string }).data).method).toBe("notifications/subscriptions/acknowledged");
      listens.push({ instance, events, response });
    }
    expect(listens.map((l) => l.instance).sort()).toEqual(["a", "b", "c"]);
    const touched = await post(cluster.url, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "touch", arguments: { uri: "test://watched" }, ...envelope() } });
    expect(touched.last?.result).toMatchObject({ resultType: "complete" });
    for (const listen of listens) {
      const next = await listen.events.next();
      const message = JSON.parse((next.value as { data: string }).data) as Message;
      expect(message.method).toBe("notifications/resources/updated");
      expect(message.params?.uri).toBe("test://watched");
    }
    // exactly once: a second update is the next event on every stream
    await post(cluster.url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "touch", arguments: { uri: "test://watched" }, ...envelope() } });
    for (const listen of listens) {
      const next = await listen.events.next();
      expect(JSON.parse((next.value as { data: string }).data).method).toBe("notifications/resources/updated");
      await listen.response.body?.cancel().catch(() => undefined);
    }
  });
});
