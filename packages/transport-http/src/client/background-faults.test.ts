import { afterEach, describe, expect, it } from "vitest";
import type { TransportSink } from "@proto/jsonrpc";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import type { FetchLike } from "./options";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
  unhandled.length = 0;
});

describe("the Streamable HTTP client's background chains", () => {
  it("never leave a rejection unhandled, even when the sink throws on the answer and again on the fault", async () => {
    process.on("unhandledRejection", onUnhandled);
    const fetch: FetchLike = async () => new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} }), { headers: { "content-type": "application/json" } });
    const transport = createStreamableHttpClientTransport("http://127.0.0.1:1/mcp", { fetch, standaloneStream: false, reconnect: { maxRetries: 0 } });
    let faults = 0;
    const sink: TransportSink = {
      payload: () => {
        throw new Error("a sink that throws on a payload");
      },
      error: () => {
        faults += 1;
        throw new Error("a sink that throws");
      },
      closed: () => undefined,
    };
    await transport.start(sink);
    await transport.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } });
    for (let i = 0; i < 20 && faults === 0; i += 1) await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(faults).toBeGreaterThan(0);
    expect(unhandled).toEqual([]);
    await transport.close();
  });
});
