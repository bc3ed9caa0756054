/**
 * What every framework test shares: the MCP server the recipes mount (one `echo` tool) and
 * the client walk that proves a mount works end to end over real HTTP (initialize, tools/list,
 * a tool call answered as JSON and one streamed as SSE, session close). Recipes are the
 * transport-http README's, byte for byte (test/frameworks/recipes.test.ts checks that).
 */
import { expect } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createHttpClientTransport } from "@proto/transport-http";

/** The server behind every recipe: `echo` answers its text; with `progress` it reports first (SSE). */
export function createEchoServer(): Server {
  const server = createServer({ name: "framework-echo", version: "1.0.0" });
  server.tool(
    {
      name: "echo",
      description: "Echo a text.",
      inputSchema: { type: "object", properties: { text: { type: "string" }, progress: { type: "boolean" } }, required: ["text"] },
    },
    async ({ text, progress }, ctx) => {
      if (progress) await ctx.progress(1, 1);
      return { content: [{ type: "text", text }] };
    },
  );
  return server;
}

/** Connects our client to `url` (or through `fetch`), calls `echo` twice (JSON, then SSE with progress), closes. */
export async function expectEchoWorks(url: string, fetchImpl?: typeof fetch): Promise<void> {
  const client = createClient({ info: { name: "framework-test", version: "1.0.0" } });
  await client.connect(createHttpClientTransport(url, fetchImpl ? { fetch: fetchImpl } : {}));
  try {
    expect(client.server?.info.name).toBe("framework-echo");
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(["echo"]);
    const plain = await client.callTool("echo", { text: "over json" });
    expect(plain.content).toEqual([{ type: "text", text: "over json" }]);
    const updates: number[] = [];
    const streamed = await client.callTool("echo", { text: "over sse", progress: true }, { onProgress: (p) => updates.push(p.progress) });
    expect(streamed.content).toEqual([{ type: "text", text: "over sse" }]);
    expect(updates).toEqual([1]);
  } finally {
    await client.close();
  }
}

/** A raw POST of `initialize`, for the status a mount gives when misused. */
export function postInitialize(url: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
  });
}
