import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import { createEchoServer } from "./testing/echo-server";
import type { EchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc } from "./testing/net";
import { startTarget } from "./testing/targets";
import type { AdapterKind, Target } from "./testing/targets";
import type { NodeHttpHandlerOptions } from "./node-adapter";

const kinds: AdapterKind[] = ["node", "web"];
const SSE = { accept: "text/event-stream" };

describe.each(kinds)("GET, DELETE and stateless mode (%s adapter)", (kind) => {
  let target: Target | undefined;
  let echo: EchoServer;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}): Promise<Target> {
    echo = createEchoServer();
    target = await startTarget(kind, { connect: echo.connect, ...options });
    return target;
  }

  function post(t: Target, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return t.fetch(t.url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body });
  }

  async function session(t: Target): Promise<Record<string, string>> {
    const response = await post(t, initBody());
    await response.text();
    return { "mcp-session-id": response.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
  }

  it("opens the standalone stream; transport.send arrives on it", async () => {
    const t = await start();
    const headers = await session(t);
    const get = await t.fetch(t.url, { headers: { ...SSE, ...headers } });
    expect(get.status).toBe(200);
    expect(get.headers.get("content-type")).toBe("text/event-stream");
    await echo.peers[0]?.notify("notifications/tools/list_changed");
    const events = await readEvents(get, () => true);
    expect(JSON.parse(events[0]?.data ?? "")).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  it("delivers server requests on the standalone stream and takes their responses by POST", async () => {
    const t = await start();
    const headers = await session(t);
    const get = await t.fetch(t.url, { headers: { ...SSE, ...headers } });
    const asked = echo.peers[0]?.request("roots/list", {});
    const [event] = await readEvents(get, () => true);
    const request = JSON.parse(event?.data ?? "") as { id: number; method: string };
    expect(request.method).toBe("roots/list");
    const answer = await post(t, JSON.stringify({ jsonrpc: "2.0", id: request.id, result: { roots: [] } }), headers);
    expect(answer.status).toBe(202);
    await expect(asked).resolves.toEqual({ roots: [] });
  });

  it("refuses a GET that does not accept text/event-stream (406), without or with an unknown session", async () => {
    const t = await start();
    const headers = await session(t);
    expect((await t.fetch(t.url, { headers: { accept: "application/json", ...headers } })).status).toBe(406);
    expect((await t.fetch(t.url, { headers: SSE })).status).toBe(400);
    expect((await t.fetch(t.url, { headers: { ...SSE, "mcp-session-id": "f".repeat(32) } })).status).toBe(404);
  });

  it("answers 405 to GET when the standalone stream is off", async () => {
    const t = await start({ standaloneSse: false });
    const headers = await session(t);
    expect((await t.fetch(t.url, { headers: { ...SSE, ...headers } })).status).toBe(405);
  });

  it("refuses Last-Event-ID without an event store", async () => {
    const t = await start();
    const headers = await session(t);
    const response = await t.fetch(t.url, { headers: { ...SSE, ...headers, "last-event-id": "x:1" } });
    expect(response.status).toBe(400);
  });

  it("stateless: every POST gets its own transport, no session, and GET/DELETE are 405", async () => {
    const t = await start({ stateless: true });
    const first = await post(t, rpc(1, "tools/call", { name: "echo", arguments: { text: "a" } }));
    expect(first.headers.get("mcp-session-id")).toBeNull();
    expect(await first.json()).toMatchObject({ id: 1, result: { content: [{ text: "a" }] } });
    const second = await post(t, rpc(2, "tools/call", { name: "chatty", arguments: { count: 1 } }));
    expect(second.headers.get("content-type")).toBe("text/event-stream");
    expect((await readEvents(second)).length).toBe(2);
    expect(echo.peers).toHaveLength(2);
    await Promise.all(echo.peers.map((peer) => peer.closed));
    expect(t.sessionCount).toBe(0);
    expect((await t.fetch(t.url, { headers: SSE })).status).toBe(405);
    expect((await t.fetch(t.url, { method: "DELETE" })).status).toBe(405);
  });

  it("resumes a POST stream with Last-Event-ID: missed events once, in order, then live ones", async () => {
    const t = await start({ eventStore: createMemoryEventStore(), responseMode: "sse" });
    const headers = await session(t);
    const response = await post(t, rpc(9, "tools/call", { name: "ticks", arguments: { count: 6 } }), headers);
    echo.gate.release(2);
    const first = await readEvents(response, (_e, all) => all.filter((e) => e.data !== "").length === 2);
    expect(first[0]).toMatchObject({ data: "" });
    expect(first[0]?.id).toBeDefined();
    const lastId = first.at(-1)?.id ?? "";
    echo.gate.release(2); // sent while nobody listens: stored
    const resumed = await t.fetch(t.url, { headers: { ...SSE, ...headers, "last-event-id": lastId } });
    expect(resumed.status).toBe(200);
    echo.gate.release(2);
    const rest = await readEvents(resumed);
    const ticks = [...first, ...rest].filter((e) => e.data !== "").map((e) => JSON.parse(e.data) as { id?: number; params?: { data: { tick: number } } });
    expect(ticks.map((m) => m.params?.data.tick ?? `response ${m.id}`)).toEqual([0, 1, 2, 3, 4, 5, "response 9"]);
  });

  it("primes streams only for sessions or requests of 2025-11-25 and later", async () => {
    const t = await start({ eventStore: createMemoryEventStore(), responseMode: "sse" });
    const modern = await session(t);
    let events = await readEvents(await post(t, rpc(1, "ping"), modern));
    expect(events[0]).toMatchObject({ data: "", id: expect.any(String) }); // negotiated 2025-11-25: primed
    const init = await post(t, initBody(0, "2025-06-18"));
    await init.text();
    const old = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-06-18" };
    events = await readEvents(await post(t, rpc(2, "ping"), old));
    expect(events.map((e) => e.data)).toEqual([JSON.stringify({ jsonrpc: "2.0", id: 2, result: {} })]);
    expect(events[0]?.id).toBeDefined(); // still resumable: ids on every event
  });

  it("refuses a Last-Event-ID of another session", async () => {
    const t = await start({ eventStore: createMemoryEventStore(), responseMode: "sse" });
    const mine = await session(t);
    const theirs = await session(t);
    const response = await post(t, rpc(1, "ping"), mine);
    const events = await readEvents(response);
    const id = events[0]?.id ?? "";
    expect(id).not.toBe("");
    const stolen = await t.fetch(t.url, { headers: { ...SSE, ...theirs, "last-event-id": id } });
    expect(stolen.status).toBe(400);
    const own = await t.fetch(t.url, { headers: { ...SSE, ...mine, "last-event-id": id } });
    expect(own.status).toBe(200);
    expect((await readEvents(own)).map((e) => JSON.parse(e.data))).toEqual([{ jsonrpc: "2.0", id: 1, result: {} }]);
  });

  it("closes SSE connections early when asked (polling) and the client resumes without loss", async () => {
    const t = await start({ eventStore: createMemoryEventStore(), responseMode: "sse", closeSseAfterMs: 1, retryMs: 5 });
    const headers = await session(t);
    const response = await post(t, rpc(3, "tools/call", { name: "ticks", arguments: { count: 3 } }), headers);
    const seen = await readEvents(response);
    expect(seen.at(-1)?.data).toBe(""); // the connection ended after the priming event (and a retry)
    let lastId = seen.at(-1)?.id ?? seen.find((e) => e.id)?.id ?? "";
    const data: string[] = [];
    echo.gate.release(3);
    for (let round = 0; round < 20 && !data.some((d) => d.includes('"id":3')); round += 1) {
      const again = await t.fetch(t.url, { headers: { ...SSE, ...headers, "last-event-id": lastId } });
      for (const event of await readEvents(again)) {
        if (event.id) lastId = event.id;
        if (event.data !== "") data.push(event.data);
      }
    }
    expect(data.map((d) => (JSON.parse(d) as { params?: { data: { tick: number } }; id?: number }).params?.data.tick ?? "done")).toEqual([0, 1, 2, "done"]);
  });

  it("keeps a long stream whole and in order under backpressure, keep-alives interleaved", async () => {
    const t = await start({ keepAliveMs: 1 });
    const headers = await session(t);
    const response = await post(t, rpc(4, "tools/call", { name: "chatty", arguments: { count: 3000 } }), headers);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (text.length % 7 === 0) await new Promise((resolve) => setTimeout(resolve, 1)); // a slow reader, now and then
    }
    const data = text.split("\n\n").filter((block) => block.startsWith("data: ")).map((block) => JSON.parse(block.slice(6)) as { id?: number; params?: { data: string } });
    expect(data).toHaveLength(3001);
    expect(data.slice(0, 3000).every((m, i) => m.params?.data === `line ${i}`)).toBe(true);
    expect(data[3000]?.id).toBe(4);
  });

  it("sends keep-alive comments on idle streams", async () => {
    const t = await start({ keepAliveMs: 10 });
    const headers = await session(t);
    const get = await t.fetch(t.url, { headers: { ...SSE, ...headers } });
    const reader = (get.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain(": keep-alive");
    await reader.cancel();
  });
});
