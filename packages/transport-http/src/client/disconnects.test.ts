import { afterEach, describe, expect, it } from "vitest";
import type { FetchLike, HttpClientEvent } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { callText, drive, initialize } from "./testing/drive";
import { startSdkStreamableServer } from "./testing/sdk-servers";
import type { FixtureServer } from "./testing/sdk-servers";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A fetch that cuts every SSE body after its first chunk, `cuts` times in all: the
 * connection drops mid-stream as a flaky network would, and the server sees it go.
 */
function cuttingFetch(cuts: number): { fetch: FetchLike; made: () => number } {
  let made = 0;
  const fetchImpl: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    const sse = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
    if (!sse || !response.body || made >= cuts) return response;
    made++;
    const reader = response.body.getReader();
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (chunks++ >= 1) {
          await reader.cancel();
          controller.error(new TypeError("terminated: connection cut by the test"));
          return;
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch: fetchImpl, made: () => made };
}

describe("forced disconnects mid-stream", () => {
  it("100 cuts of a POST answer stream: every event arrives once, in order", async () => {
    const cutter = cuttingFetch(100);
    server = await startSdkStreamableServer({ resumable: { retryMs: 5 }, countUntil: () => cutter.made() >= 100 });
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(server.url, {
      fetch: cutter.fetch,
      standaloneStream: false,
      onEvent: (e) => events.push(e),
      reconnect: { maxRetries: 3 },
    });
    const { peer, logs } = await drive(transport, 150_000);
    await initialize(peer);
    const count = Number(await callText(peer, "count"));
    expect(cutter.made()).toBe(100);
    expect(logs).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(events.filter((e) => e.type === "reconnecting").length).toBeGreaterThanOrEqual(99);
    await peer.close();
  }, 180_000);
});
