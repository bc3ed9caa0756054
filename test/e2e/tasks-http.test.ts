/**
 * Tool tasks end to end over Streamable HTTP on 127.0.0.1: @proto/mcp-client with our HTTP
 * client transport against @proto/mcp-server (`tasks: {}`) behind our Node handler, in both
 * eras. On 2026-07-28 every `tasks/*` POST carries `Mcp-Name: <taskId>` (ext-tasks "Streamable
 * HTTP: Routing Headers"), and the task's input requests come inline in `tasks/get`.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, type Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { textOf } from "../support/wait";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Seen {
  readonly method: string | undefined;
  readonly name: string | undefined;
}

async function serve(): Promise<{ url: string; seen: Seen[] }> {
  const server = createServer({ name: "tasks-http", version: "1.0.0" }, { tasks: { pollIntervalMs: 20 } });
  server.tool({ name: "confirm", inputSchema: { type: "object", properties: { file: { type: "string" } }, required: ["file"] }, execution: { taskSupport: "required" } }, async ({ file }, ctx) => {
    const answer = await ctx.elicit({ message: `Delete ${file}?`, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } });
    return answer.action === "accept" && answer.content?.ok === true ? `deleted ${file}` : `kept ${file}`;
  });
  const seen: Seen[] = [];
  const handler = createNodeHttpHandler({ connect: (t, c) => server.connect(t, c.sessionId === undefined ? {} : { sessionId: c.sessionId }) });
  const listener = createNodeHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const header = (name: string): string | undefined => (typeof req.headers[name] === "string" ? (req.headers[name] as string) : undefined);
    seen.push({ method: header("mcp-method"), name: header("mcp-name") });
    handler(req, res);
  });
  const port = await listenLoopback(listener);
  cleanup.push(async () => (await closeHttp(listener), await server.close()));
  return { url: `http://127.0.0.1:${port}/mcp`, seen };
}

for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
  describe(`tasks over Streamable HTTP (${protocol})`, () => {
    it("runs a task-required tool: its elicitation answered, the result fetched, tasks/* routed by task id", async () => {
      const { url, seen } = await serve();
      const client: Client = createClient({
        info: { name: "tasks-http-host", version: "1" },
        protocol,
        elicitation: { form: () => ({ action: "accept", content: { ok: true } }) },
      });
      cleanup.push(() => client.close());
      await client.connect(createStreamableHttpClientTransport(url));
      const task = await client.callToolAsTask("confirm", { file: "notes.txt" });
      expect(task.taskId).toEqual(expect.any(String));
      expect(textOf(await task.result())).toBe("deleted notes.txt");
      expect(task.task?.status).toBe("completed");
      const taskPosts = seen.filter((s) => s.method?.startsWith("tasks/") === true);
      if (protocol === "2026-07-28") {
        expect(taskPosts.map((s) => s.method)).toEqual(expect.arrayContaining(["tasks/get", "tasks/update"]));
        for (const post of taskPosts) expect(post.name).toBe(task.taskId);
      }
      expect(textOf(await client.callTool("confirm", { file: "b.txt" }))).toBe("deleted b.txt");
    }, 20_000);
  });
}
