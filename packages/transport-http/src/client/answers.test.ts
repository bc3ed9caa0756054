import { JsonRpcError } from "@proto/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive, initialize } from "./testing/drive";
import { openSse, writeEvent } from "./testing/http-fixture";
import { answerJson, startScriptedMcp } from "./testing/scripted-mcp";
import type { ScriptedMcp, ScriptedMcpHandlers } from "./testing/scripted-mcp";

let server: ScriptedMcp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function callWith(handlers: ScriptedMcpHandlers, options: { maxMessageBytes?: number } = {}) {
  server = await startScriptedMcp(handlers);
  const transport = createStreamableHttpClientTransport(server.url, { ...options, standaloneStream: false, reconnect: { initialDelayMs: 5 } });
  const driven = await drive(transport);
  await initialize(driven.peer);
  const outcome = await driven.peer.request("tools/call", { name: "x" }).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await driven.peer.close();
  return { ...driven, outcome };
}

describe("answers to a POST", () => {
  it("fails the request at once when its stream ends early with no event id to resume from", async () => {
    const { outcome } = await callWith({
      call(_m, res) {
        openSse(res);
        writeEvent(res, { data: JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } }) });
        res.end();
      },
    });
    expect(outcome).toEqual({ error: expect.any(JsonRpcError) });
    const error = (outcome as { error: JsonRpcError }).error;
    expect(error.code).toBe(-32000);
    expect(error.message).toMatch(/No response: .*without an event id to resume from/);
    expect(error.data).toMatchObject({ transport: "http", code: "STREAM_LOST" });
  });

  it("fails the request when the server refuses to resume its stream (405)", async () => {
    const { outcome } = await callWith({
      call(_m, res) {
        openSse(res);
        writeEvent(res, { id: "p1", data: "" });
        res.end();
      },
      get(_req, res) {
        res.writeHead(405).end();
      },
    });
    expect((outcome as { error: JsonRpcError }).error.message).toMatch(/refused to resume it \(GET answered 405\)/);
  });

  it("resumes a stream that dropped and delivers the response that came after", async () => {
    const { outcome } = await callWith({
      call(_m, res) {
        openSse(res);
        writeEvent(res, { id: "p1", data: "", retry: 5 });
        res.end();
      },
      get(req, res) {
        expect(req.headers["last-event-id"]).toBe("p1");
        openSse(res);
        writeEvent(res, { id: "p2", data: JSON.stringify({ jsonrpc: "2.0", id: 2, result: { resumed: true } }) });
        res.end();
      },
    });
    expect(outcome).toEqual({ value: { resumed: true } });
  });

  it("fails the request when a JSON answer holds no response for it", async () => {
    const { outcome } = await callWith({
      call(_m, res) {
        answerJson(res, 999, {});
      },
    });
    expect((outcome as { error: JsonRpcError }).error.message).toMatch(/held no response for this request/);
  });

  it("refuses a JSON answer over maxMessageBytes without reading it all", async () => {
    const { outcome, warnings } = await callWith(
      {
        call(m, res) {
          answerJson(res, m.id, { blob: "x".repeat(10_000) });
        },
      },
      { maxMessageBytes: 1_000 },
    );
    expect((outcome as { error: JsonRpcError }).error.data).toMatchObject({ code: "OVERSIZED" });
    expect(warnings.some((w) => w.startsWith("OVERSIZED:"))).toBe(true);
  });

  it("refuses an SSE event over maxMessageBytes and fails its request", async () => {
    const { outcome } = await callWith(
      {
        call(m, res) {
          openSse(res);
          writeEvent(res, { id: "a", data: JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { blob: "x".repeat(10_000) } }) });
          res.end();
        },
      },
      { maxMessageBytes: 1_000 },
    );
    expect((outcome as { error: JsonRpcError }).error.message).toMatch(/exceeds maxMessageBytes \(1000\)/);
  });

  it("rejects send when the answer is neither JSON nor SSE", async () => {
    const { outcome } = await callWith({
      call(_m, res) {
        res.writeHead(200, { "content-type": "text/html" }).end("<html>");
      },
    });
    expect((outcome as { error: { code: string; message: string } }).error).toMatchObject({ code: "BAD_RESPONSE" });
    expect((outcome as { error: Error }).error.message).toMatch(/text\/html.*is this an MCP endpoint/);
  });

  it("answers a server request that arrives on the POST stream with a POST of its own", async () => {
    let reply: unknown;
    let replyHeaders: Record<string, unknown> = {};
    const { outcome } = await callWith({
      async call(m, res) {
        openSse(res);
        writeEvent(res, { id: "1", data: JSON.stringify({ jsonrpc: "2.0", id: "srv-1", method: "ping" }) });
        await new Promise<void>((resolve) => {
          const wait = setInterval(() => {
            const found = server?.seen.find((r) => (r.body as { id?: unknown } | undefined)?.id === "srv-1");
            if (!found) return;
            clearInterval(wait);
            reply = found.body;
            replyHeaders = found.headers;
            resolve();
          }, 5);
        });
        writeEvent(res, { id: "2", data: JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { after: "ping" } }) });
        res.end();
      },
    });
    expect(outcome).toEqual({ value: { after: "ping" } });
    expect(reply).toEqual({ jsonrpc: "2.0", id: "srv-1", result: {} });
    expect(replyHeaders["mcp-session-id"]).toBe("s-1");
    expect(replyHeaders["mcp-protocol-version"]).toBe("2025-11-25");
  });
});

