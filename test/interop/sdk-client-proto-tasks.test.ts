/**
 * Interop: the official SDK v1 client (pinned 1.32.2) drives our 2025-11-25 tasks over
 * Streamable HTTP with its experimental tasks API (`client.experimental.tasks`): a task-augmented
 * call polled to its result, a task that outlives its HTTP request and its client (a second
 * client, a new session, fetches the result), and a task's elicitation answered through the
 * SDK's `tasks/result` stream.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { createServer } from "@proto/mcp-server";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeHttp, listenLoopback } from "../support/e2e-transports";

const NO_ARGS = { type: "object", properties: {} } as const;
let url: URL;
let stop: () => Promise<void>;
let release: () => void = () => {};
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  const server = createServer({ name: "tasks-interop", version: "1.0.0" }, { tasks: { pollIntervalMs: 20 } });
  server.tool({ name: "slow", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    await ctx.progress(1, 2, "half way");
    await new Promise((resolve) => setTimeout(resolve, 50));
    return "slow done";
  });
  server.tool({ name: "held", inputSchema: NO_ARGS, execution: { taskSupport: "required" } }, async () => {
    await released;
    return "held done";
  });
  server.tool({ name: "ask", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return `Hello, ${r.action === "accept" ? String(r.content?.name) : r.action}`;
  });
  const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (transport) => server.connect(transport) }));
  url = new URL(`http://127.0.0.1:${await listenLoopback(listener)}/mcp`);
  stop = async () => {
    await server.close();
    await closeHttp(listener);
  };
});

afterAll(() => stop());

async function sdkClient(): Promise<Client> {
  const client = new Client({ name: "sdk-tasks", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  await client.connect(new StreamableHTTPClientTransport(url));
  return client;
}

async function collect(client: Client, name: string): Promise<{ types: string[]; text: string | undefined }> {
  const types: string[] = [];
  let text: string | undefined;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: {} }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
    types.push(message.type);
    if (message.type === "result") text = (message.result.content[0] as { text?: string } | undefined)?.text;
    if (message.type === "error") throw message.error;
  }
  return { types, text };
}

describe("the official SDK v1 client with our 2025-11-25 tasks", () => {
  it("sees capabilities.tasks and taskSupport, and polls a task to its result", async () => {
    const client = await sdkClient();
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "held")?.execution).toEqual({ taskSupport: "required" });
    const run = await collect(client, "slow");
    expect(run.types[0]).toBe("taskCreated");
    expect(run.types.at(-1)).toBe("result");
    expect(run.text).toBe("slow done");
    await client.close();
  });

  it("keeps a task past its HTTP request and its client: a new client fetches the result", async () => {
    const first = await sdkClient();
    let taskId: string | undefined;
    for await (const message of first.experimental.tasks.callToolStream({ name: "held", arguments: {} }, CallToolResultSchema, { task: {} })) {
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        break;
      }
    }
    await first.close();
    expect(taskId).toBeDefined();
    const second = await sdkClient();
    expect((await second.experimental.tasks.getTask(taskId as string)).status).toBe("working");
    release();
    const result = await second.experimental.tasks.getTaskResult(taskId as string, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "held done" }]);
    expect((await second.experimental.tasks.getTask(taskId as string)).status).toBe("completed");
    await second.close();
  });

  it("answers a task's elicitation through the SDK's tasks/result stream", async () => {
    const client = await sdkClient();
    const related: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      related.push(request.params._meta?.["io.modelcontextprotocol/related-task"]);
      return { action: "accept", content: { name: "Grace" } };
    });
    const run = await collect(client, "ask");
    expect(run.text).toBe("Hello, Grace");
    expect(related).toEqual([{ taskId: expect.any(String) }]);
    await client.close();
  });
});
