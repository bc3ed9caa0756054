import { connect } from "node:net";
import type { Socket } from "node:net";
import { request as httpRequest } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, initialize, POST_HEADERS, raw, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { NodeHttpHandlerOptions, NodeServerLimits } from "./node-adapter";

/** Writes `head` then one byte of `drip` every 50 ms until the server closes the socket; resolves with what it answered. */
function trickle(port: number, head: string, drip: string): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, "127.0.0.1");
    let answer = "";
    let position = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.on("connect", () => {
      socket.write(head);
      timer = setInterval(() => {
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(drip[position % drip.length] ?? "x");
        position += 1;
      }, 50);
    });
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ answer, closedByServer: true });
    });
  });
}

describe("limits and slow clients (real sockets)", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}, limits?: NodeServerLimits): Promise<Running> {
    running = await serve({ connect: createEchoServer().connect, ...options }, limits);
    return running;
  }

  it("answers a body over 4 MiB with 413 (declared length), without reading it", async () => {
    const r = await start();
    const sid = await initialize(r.url);
    const body = rpc(1, "echo", { pad: "x".repeat(4 * 1024 * 1024) });
    const answer = await raw(r.port, { method: "POST", headers: { ...POST_HEADERS, host: "127.0.0.1", "mcp-session-id": sid }, body });
    expect(answer.status).toBe(413);
  });

  it("answers a chunked body that grows past the cap with 413", async () => {
    const r = await start({ maxMessageBytes: 64 * 1024 });
    const sid = await initialize(r.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port: r.port, method: "POST", path: "/mcp", headers: { ...POST_HEADERS, "mcp-session-id": sid, "transfer-encoding": "chunked" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      const chunk = "x".repeat(16 * 1024);
      for (let i = 0; i < 8; i += 1) req.write(chunk);
      req.end();
    });
    expect(status).toBe(413);
  });

  it("accepts a body of exactly the limit's order (a 1 MiB argument)", async () => {
    const r = await start();
    const sid = await initialize(r.url);
    const response = await fetch(r.url, { method: "POST", headers: { ...POST_HEADERS, "mcp-session-id": sid }, body: rpc(1, "echo", { pad: "y".repeat(1024 * 1024) }) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { result: { pad: string } }).result.pad).toHaveLength(1024 * 1024);
  });

  it("answers oversized headers with 431", async () => {
    const r = await start({}, { maxHeaderSize: 8 * 1024 });
    const answer = await raw(r.port, { method: "POST", headers: { ...POST_HEADERS, host: "127.0.0.1", "x-padding": "p".repeat(16 * 1024) }, body: initBody() });
    expect(answer.status).toBe(431);
  });

  it("closes a slow-loris client that never finishes its headers", async () => {
    const r = await start({}, { headersTimeoutMs: 300, requestTimeoutMs: 600, connectionsCheckingIntervalMs: 50 });
    const result = await trickle(r.port, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ", "abcdefgh");
    expect(result.closedByServer).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("closes a client that sends its body too slowly (408)", async () => {
    const r = await start({ bodyTimeoutMs: 300 });
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n`;
    const result = await trickle(r.port, head, "{");
    expect(result.closedByServer).toBe(true);
    expect(result.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("keeps SSE streams open past the request timeout, with keep-alive comments", async () => {
    const r = await start({ keepAliveMs: 100 }, { headersTimeoutMs: 200, requestTimeoutMs: 300, connectionsCheckingIntervalMs: 50 });
    const sid = await initialize(r.url);
    const response = await fetch(r.url, { headers: { accept: "text/event-stream", "mcp-session-id": sid } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let comments = 0;
    // 8 keep-alives at 100 ms span well past the 300 ms request timeout
    while (comments < 8) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      comments += (new TextDecoder().decode(value).match(/: keep-alive/g) ?? []).length;
    }
    await reader.cancel();
  });
});
