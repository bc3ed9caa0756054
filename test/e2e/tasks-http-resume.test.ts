/**
 * A tool task outliving the HTTP request that created it and the client that asked for it, over
 * Streamable HTTP on 127.0.0.1, in both eras: one @proto/mcp-client starts the task and closes;
 * the tool then asks for input; a second client, knowing only the task id, resumes it, answers
 * the late elicitation with its own handler and gets the result.
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

async function serve(): Promise<{ url: string; release: () => void; started: Promise<void> }> {
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let begun = (): void => {};
  const started = new Promise<void>((resolve) => (begun = resolve));
  const server = createServer({ name: "tasks-resume", version: "1.0.0" }, { tasks: { pollIntervalMs: 20 } });
  server.tool({ name: "deploy", inputSchema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] }, execution: { taskSupport: "required" } }, async ({ env }, ctx) => {
    begun();
    await gate;
    const answer = await ctx.elicit({ message: `Deploy to ${env}?`, requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } });
    return answer.action === "accept" && answer.content?.ok === true ? `deployed to ${env}` : `kept ${env}`;
  });
  const handler = createNodeHttpHandler({ connect: (t, c) => server.connect(t, c.sessionId === undefined ? {} : { sessionId: c.sessionId }) });
  const listener = createNodeHttpServer((req: IncomingMessage, res: ServerResponse) => handler(req, res));
  const port = await listenLoopback(listener);
  cleanup.push(async () => (await closeHttp(listener), await server.close()));
  return { url: `http://127.0.0.1:${port}/mcp`, release, started };
}

for (const protocol of ["2026-07-28", "2025-11-25"] as const) {
  describe(`a task outliving its request and its client (${protocol})`, () => {
    it("is resumed by id from another client, which answers its late input and gets the result", async () => {
      const { url, release, started } = await serve();
      // The task keeps the capabilities of the request that created it: the starter declares elicitation too.
      const firstAsked: string[] = [];
      const first: Client = createClient({ info: { name: "starter", version: "1" }, protocol, elicitation: { form: (params) => (firstAsked.push(params.message), { action: "decline" }) } });
      cleanup.push(() => first.close());
      await first.connect(createStreamableHttpClientTransport(url));
      const task = await first.callToolAsTask("deploy", { env: "prod" });
      const taskId = task.taskId;
      expect(taskId).toEqual(expect.any(String));
      await started;
      task.detach();
      await first.close();

      const asked: string[] = [];
      const second: Client = createClient({
        info: { name: "resumer", version: "1" },
        protocol,
        elicitation: { form: (params) => (asked.push(params.message), { action: "accept", content: { ok: true } }) },
      });
      cleanup.push(() => second.close());
      await second.connect(createStreamableHttpClientTransport(url));
      const resumed = second.resumeTask(taskId as string);
      release();
      expect(textOf(await resumed.result())).toBe("deployed to prod");
      expect(asked).toEqual(["Deploy to prod?"]);
      expect(firstAsked).toEqual([]);
      expect(resumed.task?.status).toBe("completed");
    }, 30_000);
  });
}
