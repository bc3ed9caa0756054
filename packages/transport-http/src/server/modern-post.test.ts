import type { Transport, TransportSink } from "@proto/jsonrpc";
import { describe, expect, it, vi } from "vitest";
import { createStreamableHttpHandler } from "./web";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  host: "127.0.0.1",
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": "tools/list",
};

function modernPost(id = 1): Request {
  return new Request("http://127.0.0.1/mcp", { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: { _meta: META } }) });
}

/** A server that answers every request with its id and records what its transport did. */
function answeringServer() {
  const seen: { send?: unknown; closed: number } = { closed: 0 };
  const connect = async (transport: Transport) => {
    await transport.start({
      payload(payload, exchange) {
        const request = payload as { id: number };
        void exchange.reply({ jsonrpc: "2.0", id: request.id, result: { tools: [], resultType: "complete" } }).then(() => exchange.finish?.());
      },
      error() {},
      closed() {
        seen.closed++;
      },
    } satisfies TransportSink);
    seen.send = await transport.send({ jsonrpc: "2.0", method: "notifications/message" }).catch((error: unknown) => error);
  };
  return { seen, connect };
}

describe("a modern POST's transport", () => {
  it("carries the one request, answers it, and closes after the answer; send has nowhere to go", async () => {
    const { seen, connect } = answeringServer();
    const handler = createStreamableHttpHandler({ connect });
    const response = await handler(modernPost(7));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 7, result: { tools: [], resultType: "complete" } });
    await vi.waitFor(() => expect(seen.closed).toBe(1));
    expect(seen.send).toMatchObject({ code: "STREAM_GONE" });
    expect(handler.sessionCount).toBe(0);
    await handler.close();
  });

  it("answers 500 and reports CONNECT_FAILED when connect throws or never starts the transport", async () => {
    for (const connect of [() => Promise.reject(new Error("boom")), () => undefined]) {
      const warn = vi.fn();
      const handler = createStreamableHttpHandler({ connect, logger: { debug() {}, info() {}, warn, error() {} } });
      const response = await handler(modernPost());
      expect(response.status).toBe(500);
      expect(await response.text()).toContain("could not start a session");
      expect(warn).toHaveBeenCalledWith(expect.any(String), expect.objectContaining({ code: "CONNECT_FAILED" }));
      await handler.close();
    }
  });
});
