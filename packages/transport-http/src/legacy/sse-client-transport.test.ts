import type { ServerResponse } from "node:http";
import type { JsonRpcPayload } from "@proto/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { createSseClientTransport } from "./sse-client-transport";
import { bodyOf, openSse, startScripted, writeEvent } from "../client/testing/http-fixture";
import type { ScriptedServer } from "../client/testing/http-fixture";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function recordingSink() {
  const payloads: JsonRpcPayload[] = [];
  let closedWith: Error | undefined | "open" = "open";
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  return {
    payloads,
    closed,
    get closedWith() {
      return closedWith;
    },
    sink: {
      payload: (payload: JsonRpcPayload) => void payloads.push(payload),
      error() {},
      closed: (reason?: Error) => {
        closedWith = reason;
        resolveClosed();
      },
    },
  };
}

describe("createSseClientTransport", () => {
  it("POSTs to the endpoint the server names (resolved against the SSE URL) and reads answers from the stream", async () => {
    let stream: ServerResponse | undefined;
    const posted: unknown[] = [];
    server = await startScripted(async (req, res) => {
      if (req.method === "GET") {
        stream = res;
        openSse(res);
        writeEvent(res, { event: "endpoint", data: "/messages?sessionId=abc" });
        return;
      }
      expect(req.url).toBe("/messages?sessionId=abc");
      const body = JSON.parse(await bodyOf(req)) as { id: number };
      posted.push(body);
      res.writeHead(202).end("Accepted");
      writeEvent(stream!, { event: "message", data: JSON.stringify({ jsonrpc: "2.0", id: body.id, result: { ok: 1 } }) });
    });
    const transport = createSseClientTransport(server.url);
    const recorder = recordingSink();
    await transport.start(recorder.sink);
    expect(transport.endpoint?.href).toBe(new URL("/messages?sessionId=abc", server.url).href);
    await transport.send({ jsonrpc: "2.0", id: 7, method: "ping" });
    await expect.poll(() => recorder.payloads).toEqual([{ jsonrpc: "2.0", id: 7, result: { ok: 1 } }]);
    expect(posted).toEqual([{ jsonrpc: "2.0", id: 7, method: "ping" }]);
    await transport.close();
    expect(recorder.closedWith).toBeUndefined();
  });

  it("refuses a message endpoint on another origin", async () => {
    server = await startScripted((_req, res) => {
      openSse(res);
      writeEvent(res, { event: "endpoint", data: "http://evil.example/steal" });
    });
    const recorder = recordingSink();
    await expect(createSseClientTransport(server.url).start(recorder.sink)).rejects.toMatchObject({
      code: "BAD_ENDPOINT",
      message: expect.stringMatching(/another origin \(http:\/\/evil\.example/),
    });
    await recorder.closed;
  });

  it("gives up when no endpoint comes in time, and when the GET is not an SSE stream", async () => {
    server = await startScripted((req, res) => {
      if (req.url === "/mcp") {
        openSse(res);
        res.write(": keep-alive\n\n");
      } else res.writeHead(200, { "content-type": "text/html" }).end("<html>");
    });
    await expect(createSseClientTransport(server.url, { endpointTimeoutMs: 50 }).start(recordingSink().sink)).rejects.toThrow(
      /no message endpoint within 50 ms/,
    );
    await expect(createSseClientTransport(new URL("/other", server.url)).start(recordingSink().sink)).rejects.toMatchObject({
      code: "BAD_RESPONSE",
    });
  });

  /** A legacy server that named its endpoint and keeps the stream open; the transport started on it. */
  async function openedStream(): Promise<{ stream: ServerResponse; recorder: ReturnType<typeof recordingSink> }> {
    let stream: ServerResponse | undefined;
    server = await startScripted((_req, res) => {
      stream = res;
      openSse(res);
      writeEvent(res, { event: "endpoint", data: "/messages" });
    });
    const recorder = recordingSink();
    await createSseClientTransport(server.url).start(recorder.sink);
    return { stream: stream!, recorder };
  }

  it("closes with STREAM_LOST when the server ends the stream", async () => {
    const { stream, recorder } = await openedStream();
    stream.end();
    await recorder.closed;
    expect(recorder.closedWith).toMatchObject({ code: "STREAM_LOST" });
  });

  it("closes with STREAM_LOST, the network error as its cause, when the connection drops mid-stream", async () => {
    const { stream, recorder } = await openedStream();
    stream.socket?.destroy();
    await recorder.closed;
    expect(recorder.closedWith).toMatchObject({ name: "HttpClientError", code: "STREAM_LOST" });
    expect((recorder.closedWith as Error).cause).toBeInstanceOf(Error);
  });
});
