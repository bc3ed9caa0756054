/**
 * Task-augmented sampling and elicitation (2025-11-25, the server as requestor) end to end over
 * Streamable HTTP on 127.0.0.1: @proto/mcp-server asks with `{ task: true }`, @proto/mcp-client
 * (`tasks.serveRequests`) runs its handlers as tasks, the server polls them and gets the result.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { textOf } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe("task-augmented requests to the client over Streamable HTTP (2025-11-25)", () => {
  it("elicits and samples through client-side tasks polled by the server", async () => {
    const server = createServer({ name: "asks-http", version: "1.0.0" });
    const seen: string[] = [];
    server.tool({ name: "interview", inputSchema: { type: "object" } }, async (_a, ctx) => {
      seen.push(JSON.stringify(ctx.clientCapabilities.tasks));
      const who = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { task: true });
      const said = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "greet" } }], maxTokens: 10 }, { task: { ttlMs: 60_000 } });
      return `${who.action === "accept" ? who.content.name : "?"}: ${(said.content as { text: string }).text}`;
    });
    const handler = createNodeHttpHandler({ connect: (t, c) => server.connect(t, c.sessionId === undefined ? {} : { sessionId: c.sessionId }) });
    const listener = createNodeHttpServer((req, res) => handler(req, res));
    const port = await listenLoopback(listener);
    cleanup.push(async () => (await closeHttp(listener), await server.close()));
    let runs = 0;
    const client = createClient({
      info: { name: "asks-host", version: "1" },
      protocol: "2025-11-25",
      tasks: { serveRequests: { pollIntervalMs: 20 } },
      elicitation: { form: async () => (runs++, await new Promise((r) => setTimeout(r, 60)), { action: "accept", content: { name: "Ada" } }) },
      sampling: { createMessage: () => (runs++, { role: "assistant", model: "m", content: { type: "text", text: "hello" } }) },
    });
    cleanup.push(() => client.close());
    await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
    expect(textOf(await client.callTool("interview", {}))).toBe("Ada: hello");
    expect(runs).toBe(2);
    expect(JSON.parse(seen[0] ?? "{}")).toMatchObject({ requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
  });
});
