import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, readEvents, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";
import { createMemoryEventStore } from "./event-store";
import { PostExchange } from "./exchange";
import type { HttpIn } from "./io";

describe("the Node adapter's SSE writer", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function session(): Promise<{ url: string; headers: Record<string, string>; release: () => void }> {
    const echo = createEchoServer();
    running = await serve({ connect: echo.connect, responseMode: "sse", eventStore: createMemoryEventStore() });
    const init = await fetch(running.url, { method: "POST", headers: POST_HEADERS, body: initBody() });
    await init.text();
    const headers = { ...POST_HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
    return { url: running.url, headers, release: () => echo.gate.release() };
  }

  it("sends an answer finished in the turn its stream opened as one response with a Content-Length: priming event, then the answer", async () => {
    const s = await session();
    const response = await fetch(s.url, { method: "POST", headers: s.headers, body: rpc(1, "tools/call", { name: "echo", arguments: { text: "hi" } }) });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const events = text.split("\n\n").filter((block) => block !== "");
    expect(events).toHaveLength(2);
    expect(events[0]).toMatch(/^id: \S+\nretry: \d+\ndata: $/);
    expect(events[1]).toMatch(/^id: \S+\ndata: \{"jsonrpc":"2.0","id":1,"result"/);
  });

  it("does not hold a large answer for the end of the turn: past 64 KiB the head and the text leave at once, the rest streams", async () => {
    const s = await session();
    const text = "x".repeat(100_000);
    const response = await fetch(s.url, { method: "POST", headers: s.headers, body: rpc(3, "tools/call", { name: "echo", arguments: { text } }) });
    expect(response.headers.get("content-length")).toBeNull();
    const events = await readEvents(response);
    expect(events.some((event) => event.data.includes(text))).toBe(true);
  });

  it("streams a longer answer as it comes: the head and the first events arrive before the call ends", async () => {
    const s = await session();
    const response = await fetch(s.url, { method: "POST", headers: s.headers, body: rpc(2, "tools/call", { name: "ticks", arguments: { count: 2 } }) });
    // the response head arrived while the tool still waits on the gate
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBeNull();
    s.release();
    s.release();
    const events = await readEvents(response);
    expect(events.some((event) => event.data.includes('"id":2'))).toBe(true);
  });
});

describe("PostExchange.aborted", () => {
  it("tells an abort without creating a signal, and a signal read afterwards is already aborted", () => {
    const input = { onAbort: () => undefined } as unknown as HttpIn;
    const exchange = new PostExchange({
      info: { transport: "http" },
      input,
      answer: () => undefined,
      mode: "json",
      batch: false,
      answered: true,
      headers: {},
      openStream: () => {
        throw new Error("no stream in json mode");
      },
      prime: false,
      unsolicited: undefined,
      onResponse: undefined,
      onEnd: undefined,
      fault: () => undefined,
    });
    expect(exchange.aborted).toBe(false);
    const reason = new Error("gone");
    exchange.abort(reason);
    expect(exchange.aborted).toBe(true);
    expect(exchange.signal.aborted).toBe(true);
    expect(exchange.signal.reason).toBe(reason);
  });
});
