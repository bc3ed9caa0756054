/**
 * Regression: the Web handler's promise never settled when reading the request body failed
 * (the core answered through an out-parameter and that path forgot to). The core now returns
 * its answer, so every path settles.
 */
import { describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { POST_HEADERS } from "./testing/net";
import { createStreamableHttpHandler } from "./web";

function failingBody(): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":"2.0",'));
        return;
      }
      controller.error(new Error("the connection reset mid-body"));
    },
  });
}

describe("the Web handler when the body cannot be read", () => {
  it("settles with an error answer instead of hanging", async () => {
    const echo = createEchoServer();
    const handler = createStreamableHttpHandler({ connect: echo.connect });
    try {
      const request = new Request("http://127.0.0.1/mcp", { method: "POST", headers: POST_HEADERS, body: failingBody(), duplex: "half" } as RequestInit);
      const response = await handler(request);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { message: expect.stringContaining("could not be read") } });
    } finally {
      await handler.close();
    }
  });
});
