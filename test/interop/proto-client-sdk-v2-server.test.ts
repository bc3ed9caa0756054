/**
 * Interop: @proto/mcp-client in `protocol: "auto"` against the official SDK v2 server
 * (`@modelcontextprotocol/server` 2.4.0, `createMcpHandler` over HTTP). The probe reaches the
 * 2026-07-28 wire; tools, multi round-trip elicitation and sampling work with the same user
 * code as on 2025 servers.
 */
import { createServer, type IncomingMessage, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { McpServer, createMcpHandler, inputRequired } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createClient, type Client } from "@proto/mcp-client";
import { createHttpClientTransport } from "@proto/transport-http";

let http: HttpServer | undefined;
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await new Promise<void>((resolve) => (http === undefined ? resolve() : http.close(() => resolve())));
  http = undefined;
});

function sdkServer(): McpServer {
  const server = new McpServer({ name: "sdk-v2", version: "2.4.0" });
  server.registerTool("echo", { description: "echoes", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("confirm", { description: "asks first", inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => {
    const answer = (ctx.mcpReq.inputResponses as Record<string, { action?: string; content?: { ok?: boolean } }> | undefined)?.confirm;
    if (answer?.action !== "accept") {
      return inputRequired({ inputRequests: { confirm: inputRequired.elicit({ message: `Deploy to ${env}?`, requestedSchema: z.object({ ok: z.boolean() }) }) } });
    }
    return { content: [{ type: "text", text: `deployed to ${env}: ${String(answer.content?.ok)}` }] };
  });
  server.registerTool("think", { description: "samples", inputSchema: z.object({}) }, async (_args, ctx) => {
    const sampled = (ctx.mcpReq.inputResponses as Record<string, { content?: { text?: string } }> | undefined)?.model;
    if (sampled === undefined) {
      return inputRequired({ inputRequests: { model: inputRequired.createMessage({ messages: [{ role: "user", content: { type: "text", text: "2+2?" } }], maxTokens: 5 }) } });
    }
    return { content: [{ type: "text", text: `model said ${sampled.content?.text ?? "?"}` }] };
  });
  return server;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
  return new Request(new URL(req.url ?? "/", origin), { method: req.method ?? "GET", headers, ...(body === undefined ? {} : { body }) });
}

async function serve(): Promise<string> {
  const handler = createMcpHandler(() => sdkServer());
  http = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? "127.0.0.1"}`;
    void toRequest(req, origin).then(async (request) => {
      const response = await handler.fetch(request);
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      res.writeHead(response.status, headers);
      if (response.body === null) return void res.end();
      Readable.fromWeb(response.body as never).pipe(res);
    }).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

describe("our client against the official SDK v2 server (createMcpHandler)", () => {
  it("auto reaches 2026-07-28 and calls tools, with multi round-trip elicitation and sampling", async () => {
    const url = await serve();
    const client = createClient({
      info: { name: "proto-host", version: "1" },
      transport: () => createHttpClientTransport(url),
      elicitation: { form: () => ({ action: "accept", content: { ok: true } }) },
      sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "4" }, model: "m" }) },
    });
    clients.push(client);
    const details = await client.connect();
    expect(details.protocolVersion).toBe("2026-07-28");
    expect((await client.listAllTools()).map((t) => t.name).sort()).toEqual(["confirm", "echo", "think"]);
    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
    expect((await client.callTool("confirm", { env: "prod" })).content).toEqual([{ type: "text", text: "deployed to prod: true" }]);
    expect((await client.callTool("think", {})).content).toEqual([{ type: "text", text: "model said 4" }]);
    await client.ping();
  });

  it('protocol: "2025-11-25" gets the SDK\'s legacy serving with the same calls', async () => {
    const url = await serve();
    const client = createClient({ info: { name: "proto-host", version: "1" }, protocol: "2025-11-25", transport: () => createHttpClientTransport(url) });
    clients.push(client);
    expect((await client.connect()).protocolVersion).toBe("2025-11-25");
    expect((await client.callTool("echo", { text: "old" })).content).toEqual([{ type: "text", text: "old" }]);
  });
});
