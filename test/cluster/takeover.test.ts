/**
 * Three instances behind HAProxy round-robin on one Redis (issue 19), the faults a single
 * instance cannot show: the instance executing a tool call is killed (SIGKILL) mid-call and a
 * survivor answers the call exactly once (runs it again when the tool is safe to repeat, else a
 * -32603 `instance_lost` error, cancelling the server-to-client requests it had pending); a
 * resource update made on any instance reaches every subscribed 2025 session once, held GET
 * stream or not; a list change every instance makes reaches each listen stream and session once.
 * Needs `redis-server` and `haproxy` (Debian packages; `.ci/run` installs them).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missingDaemons } from "../support/daemons";
import { envelope, post, standardHeaders } from "../support/modern-http";
import type { Cluster, Message, RawSession, SseEvent } from "./rig";
import { executorRound } from "./chaos";
import { rawSession, readResuming, readSse, startCluster } from "./rig";

const missing = missingDaemons("redis-server", "haproxy");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The next message (data event) of an SSE reader. */
async function nextMessage(events: AsyncGenerator<SseEvent>): Promise<Message> {
  for (;;) {
    const next = await events.next();
    if (next.done === true) throw new Error("the stream ended");
    if (next.value.data !== "") return JSON.parse(next.value.data) as Message;
  }
}

/** The messages of a session's GET stream, resumed with `Last-Event-ID` whenever a connection ends (the deployment makes streams poll). */
async function* standalone(session: RawSession, first: Response): AsyncGenerator<SseEvent> {
  let response = first;
  let lastId: string | undefined;
  for (let connection = 0; connection < 400; connection += 1) {
    if (response.status === 200) {
      for await (const event of readSse(response)) {
        lastId = event.id ?? lastId;
        yield event;
      }
    } else {
      await response.text();
      await sleep(100);
    }
    response = await session.get(lastId);
  }
}

describe.skipIf(missing !== undefined)(`an instance lost, notifications across instances${missing === undefined ? "" : ` (${missing})`}`, () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({ env: { CLOSE_SSE_AFTER_MS: "150", LEASE_MS: "900" } });
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  }, 30_000);

  it("the executor of a call that is not safe to repeat dies: a survivor answers -32603 instance_lost, once", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    const round = await executorRound(cluster, session, 1, "long");
    expect(round.killed).toBe(true);
    expect(round.answers).toHaveLength(1);
    expect(round.answers[0]?.error).toMatchObject({ code: -32603, data: { reason: "instance_lost", retryable: false } });
    expect(round.progress).toEqual(Array.from({ length: round.progress.length }, (_, i) => i + 1));
  }, 60_000);

  it("the executor of a read-only call dies: a survivor runs it again and the client gets its result once", async () => {
    const session = rawSession(cluster.url);
    await session.initialize();
    const round = await executorRound(cluster, session, 2, "long_read");
    expect(round.killed).toBe(true);
    expect(round.answers).toHaveLength(1);
    const text = (round.answers[0]?.result as { content: { text: string }[] } | undefined)?.content[0]?.text;
    expect(text).toMatch(/^[abc] finished 20$/);
    expect(text?.startsWith(round.executor)).toBe(false);
    // the run again sends no progress (it would restart below what the client saw)
    expect(round.progress).toEqual(Array.from({ length: round.progress.length }, (_, i) => i + 1));
  }, 60_000);

  it("the executor dies while its sampling request is pending: the client is told it is cancelled, then the call fails once", async () => {
    const session = rawSession(cluster.url);
    await session.initialize({ sampling: {} });
    const first = await session.post({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ask", arguments: {} } });
    const executor = cluster.instances.find((i) => i.name === first.headers.get("x-instance"));
    let killed = false;
    const messages = await readResuming(session, first, (got) => got.some((m) => m.id === 3 && m.method === undefined), {
      maxConnections: 400,
      async onEvent() {
        if (killed) return;
        killed = true;
        await executor?.kill();
      },
    });
    await executor?.start();
    const asked = messages.find((m) => m.method === "sampling/createMessage");
    const cancelled = messages.filter((m) => m.method === "notifications/cancelled");
    expect(cancelled.map((m) => m.params?.requestId)).toEqual([asked?.id]);
    const answers = messages.filter((m) => m.id === 3 && m.method === undefined);
    expect(answers).toHaveLength(1);
    expect(answers[0]?.error).toMatchObject({ code: -32603, data: { reason: "instance_lost" } });
  }, 60_000);

  it("a resource update made on one instance reaches a 2025 session with no replica there, and one with no GET stream open, once each", async () => {
    const watcher = rawSession(cluster.url);
    await watcher.initialize();
    const events = standalone(watcher, await watcher.get());
    expect((await events.next()).value?.data).toBe(""); // priming
    expect((await watcher.call(1, "resources/subscribe", { uri: "test://watched" })).messages[0]?.result).toEqual({});
    // a second session that closes its GET stream: its update waits in the store, resumable anywhere
    const idle = rawSession(cluster.url);
    await idle.initialize();
    const idleGet = await idle.get();
    const primed = (await readSse(idleGet).next()).value as SseEvent;
    await idleGet.body?.cancel().catch(() => undefined);
    expect((await idle.call(1, "resources/subscribe", { uri: "test://watched" })).messages[0]?.result).toEqual({});
    await sleep(300);
    // the update comes from a 2026 request: no 2025 session lives on the request at all
    const touched = await post(cluster.url, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "touch", arguments: { uri: "test://watched" }, ...envelope() } });
    expect(touched.last?.result).toMatchObject({ resultType: "complete" });
    expect(await nextMessage(events)).toEqual({ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched" } });
    const resumed = await idle.get(primed.id);
    const got = await readResuming(idle, resumed, (messages) => messages.length >= 1);
    expect(got).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "test://watched" } }]);
    // once: the next event on the held stream is the next update
    await watcher.call(2, "tools/call", { name: "touch", arguments: { uri: "test://watched" } });
    expect(await nextMessage(events)).toMatchObject({ method: "notifications/resources/updated" });
    await events.return(undefined);
  }, 60_000);

  it("a list change made on every instance, then one made on one instance, reach each listen stream and 2025 session once", async () => {
    const listens: { instance: string | null; events: AsyncGenerator<SseEvent>; response: Response }[] = [];
    for (let i = 0; i < 12 && listens.length < 3; i += 1) {
      const params = { ...envelope(), notifications: { toolsListChanged: true, resourceSubscriptions: ["test://watched"] } };
      const response = await fetch(cluster.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...standardHeaders("subscriptions/listen", params) },
        body: JSON.stringify({ jsonrpc: "2.0", id: `listen-${i}`, method: "subscriptions/listen", params }),
      });
      const instance = response.headers.get("x-instance");
      if (listens.some((l) => l.instance === instance)) {
        await response.body?.cancel().catch(() => undefined);
        continue;
      }
      const events = readSse(response);
      expect((await nextMessage(events)).method).toBe("notifications/subscriptions/acknowledged");
      listens.push({ instance, events, response });
    }
    expect(listens.map((l) => l.instance).sort()).toEqual(["a", "b", "c"]);
    const legacy = rawSession(cluster.url);
    await legacy.initialize();
    const legacyEvents = standalone(legacy, await legacy.get());
    await legacy.call(1, "resources/subscribe", { uri: "test://watched" });
    const readers = [...listens.map((l) => l.events), legacyEvents];
    // a separator between the changes: a resource update is the next event after each one, so a duplicate would show
    const separate = async (id: number) => {
      await sleep(500);
      await legacy.call(id, "tools/call", { name: "touch", arguments: { uri: "test://watched" } });
      for (const events of readers) expect((await nextMessage(events)).method).toBe("notifications/resources/updated");
    };
    const registeredOn = new Set<string>();
    for (let id = 10; registeredOn.size < 3 && id < 30; id += 1) {
      const { instance } = await legacy.call(id, "tools/call", { name: "register", arguments: { tool: "everywhere" } }).catch(() => ({ instance: "" }));
      registeredOn.add(instance);
    }
    expect([...registeredOn].sort()).toEqual(["a", "b", "c"]);
    for (const events of readers) expect((await nextMessage(events)).method).toBe("notifications/tools/list_changed");
    await separate(40);
    const solo = await legacy.call(41, "tools/call", { name: "register", arguments: { tool: "solo" } });
    expect(solo.messages.at(-1)?.result).toBeDefined();
    for (const events of readers) expect((await nextMessage(events)).method).toBe("notifications/tools/list_changed");
    await separate(42);
    for (const listen of listens) await listen.response.body?.cancel().catch(() => undefined);
    await legacyEvents.return(undefined);
  }, 60_000);
});
