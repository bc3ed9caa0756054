import { createParser } from "eventsource-parser";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import { createEchoServer } from "./testing/echo-server";
import { initialize, POST_HEADERS, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";

describe("resumability under forced disconnects (real sockets)", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it("loses and duplicates nothing over 100 disconnects mid-stream, resuming with Last-Event-ID", async () => {
    const echo = createEchoServer();
    running = await serve({ connect: echo.connect, eventStore: createMemoryEventStore({ maxEventsPerStream: 2_000 }), responseMode: "sse" });
    const { url } = running;
    const sid = await initialize(url);
    const headers = { "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25" };
    const rounds = 100;
    const total = rounds * 3 + 20;

    const ticks: number[] = [];
    const ids: string[] = [];
    let responses = 0;
    let lastId: string | undefined;
    const parser = createParser({
      onEvent(event) {
        if (event.id) {
          ids.push(event.id);
          lastId = event.id;
        }
        if (event.data === "") return;
        const message = JSON.parse(event.data) as { id?: number; params?: { data: { tick: number } } };
        if (message.params) ticks.push(message.params.data.tick);
        else if (message.id === 1) responses += 1;
      },
    });

    async function consume(response: Response, enough: () => boolean): Promise<void> {
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      parser.reset({ consume: false });
      while (!enough()) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    }

    let released = 0;
    let controller = new AbortController();
    let response = await fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: rpc(1, "tools/call", { name: "ticks", arguments: { count: total } }), signal: controller.signal });
    for (let round = 0; round < rounds; round += 1) {
      echo.gate.release(2);
      released += 2;
      // stop one short: the last released event may still be in flight when the connection dies
      await consume(response, () => ticks.length >= released - 1);
      controller.abort();
      echo.gate.release(1); // produced while nobody is connected
      released += 1;
      controller = new AbortController();
      response = await fetch(url, { headers: { accept: "text/event-stream", ...headers, "last-event-id": lastId ?? "" }, signal: controller.signal });
    }
    echo.gate.release(total);
    await consume(response, () => false);

    expect(ticks).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(responses).toBe(1);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
