import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TransportSink } from "@proto/jsonrpc";
import { createHttpClientTransport } from "./http-client-transport";
import type { FetchLike } from "./options";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "t", version: "1" } } } as const;
const encoder = new TextEncoder();

/** A server that predates Streamable HTTP (POST 405) and serves a legacy SSE stream on GET, every answer released by the scheduler. */
function legacyServer(s: fc.Scheduler): { fetch: FetchLike; gets: AbortSignal[] } {
  const gets: AbortSignal[] = [];
  const fetch: FetchLike = (_url, init) => {
    if ((init.method ?? "GET") !== "GET") {
      return s.schedule(Promise.resolve(new Response("no Streamable HTTP here", { status: 405 })), "POST 405");
    }
    const signal = init.signal as AbortSignal;
    gets.push(signal);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode("event: endpoint\ndata: /messages\n\n"));
        signal.addEventListener("abort", () => controller.error(signal.reason), { once: true });
      },
    });
    const answer = signal.aborted ? Promise.reject(signal.reason as Error) : Promise.resolve(new Response(body, { headers: { "content-type": "text/event-stream" } }));
    return s.schedule(answer, "GET stream");
  };
  return { fetch, gets };
}

describe("createHttpClientTransport: close() racing the HTTP-to-legacy fallback", () => {
  it("leaves no SSE GET open after close(), and reports the close exactly once, whatever the order", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const server = legacyServer(s);
        const transport = createHttpClientTransport("http://127.0.0.1:1/mcp", { fetch: server.fetch, endpointTimeoutMs: 60_000 });
        let closes = 0;
        const sink: TransportSink = { payload: () => undefined, error: () => undefined, closed: () => void (closes += 1) };
        await transport.start(sink);
        const sent = transport.send(INITIALIZE).catch(() => undefined);
        const closing = s.schedule(Promise.resolve("close()"), "close()").then(() => transport.close());
        await s.waitFor(Promise.all([sent, closing]));
        await s.waitAll();
        expect(server.gets.every((signal) => signal.aborted)).toBe(true);
        expect(closes).toBe(1);
      }),
      { numRuns: 100 },
    );
  });
});
