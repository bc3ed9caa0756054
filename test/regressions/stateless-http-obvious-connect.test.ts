/**
 * Regression: `stateless: true` with the obvious `connect: (t) => server.connect(t)` failed every
 * request after `initialize` ("send initialize first"): each POST gets a fresh transport. Now
 * each frame says `stateless` in its ExchangeInfo and the server session treats it as initialized.
 */
import { afterAll, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";

const server = createServer({ name: "stateless", version: "1.0.0" });
server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, async ({ a, b }) => ({
  content: [{ type: "text", text: String(a + b) }],
}));
const http = createNodeHttpServer(createNodeHttpHandler({ stateless: true, connect: (transport) => server.connect(transport) }));
afterAll(() => closeHttp(http));

it("serves tools/list and tools/call after initialize, each on its own transport", async () => {
  const port = await listenLoopback(http);
  // The 2025-11-25 wire: stateless Streamable HTTP of the session era (initialize, then each request on its own transport).
  const client = createClient({ info: { name: "stateless-client", version: "1.0.0" }, protocol: "2025-11-25" });
  await client.connect(createHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["add"]);
    const result = await client.callTool("add", { a: 2, b: 3 });
    expect(result.content).toEqual([{ type: "text", text: "5" }]);
    expect(client.server?.protocolVersion).toBe("2025-11-25");
  } finally {
    await client.close();
  }
});

it("still refuses an uninitialized request on a stateful transport", async () => {
  const stateful = createNodeHttpServer(createNodeHttpHandler({ connect: (transport) => server.connect(transport) }));
  const port = await listenLoopback(stateful);
  try {
    const response = await fetch(`http://127.0.0.1:${port}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(400); // no session id: the handler refuses before the server
  } finally {
    await closeHttp(stateful);
  }
});
