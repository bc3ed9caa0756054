/**
 * Guards: `ServerSession.id` is the transport's session id (`Mcp-Session-Id`) when the transport
 * has one, as its JSDoc in @proto/mcp-server (session-types.ts) promises. A tool that must find
 * its HTTP session (to close its SSE stream, to key per-session state the HTTP layer also sees)
 * relies on it. Found by the everything example: @proto/mcp-server always used a fresh random
 * UUID (session-state.ts `createSessionState`), so `ctx.session.id` never matched the header.
 */
import { createServer as createHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createServer } from "@proto/mcp-server";
import { createNodeHttpHandler } from "@proto/transport-http/node";
import { afterEach, expect, it } from "vitest";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

it("ctx.session.id equals the Mcp-Session-Id of the Streamable HTTP session", async () => {
  const mcp = createServer({ name: "ids", version: "1.0.0" });
  mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ctx.session.id);
  const handler = createNodeHttpHandler({ connect: (transport) => mcp.connect(transport), responseMode: "json" });
  const http = createHttpServer(handler);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  cleanup.push(async () => {
    await handler.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const post = (body: object, session?: string): Promise<Response> =>
    fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" }),
      },
      body: JSON.stringify(body),
    });

  const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  const sessionId = init.headers.get("mcp-session-id");
  expect(sessionId).toBeTruthy();
  await init.text();
  await (await post({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId!)).text();
  const call = (await (await post({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } }, sessionId!)).json()) as {
    result: { content: { text: string }[] };
  };
  expect(call.result.content[0]?.text).toBe(sessionId);
  expect(mcp.sessions().map((s) => s.id)).toEqual([sessionId]);
});
