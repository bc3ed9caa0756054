import { afterEach, describe, expect, it } from "vitest";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { InMemoryTaskMessageQueue, InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";
import { ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import type { Client } from "./client-types";
import { createClient } from "./client";

/**
 * Tool tasks (2025-11-25) against the official SDK v1's experimental tasks (`registerToolTask`,
 * `InMemoryTaskStore`), in memory. The store outlives a connection, as a durable store would,
 * so a client that reconnects finds its task on the next server instance.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Gate = { open(): void; readonly wait: Promise<void> };
function gate(): Gate {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { open, wait };
}

function sdkServer(store: InMemoryTaskStore, finish: Gate): McpServer {
  const server = new McpServer({ name: "sdk-tasks", version: "1.0.0" }, {
    capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    taskStore: store,
    taskMessageQueue: new InMemoryTaskMessageQueue(),
  });
  server.experimental.tasks.registerToolTask("crunch", { inputSchema: { n: z.number() }, execution: { taskSupport: "optional" } }, {
    async createTask({ n }, extra) {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
      // Straight into the shared store: the session that made the task may be gone by then.
      void finish.wait.then(() => store.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `crunched ${n * 2}` }] }));
      return { task };
    },
    getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
  });
  server.experimental.tasks.registerToolTask("ask", { inputSchema: {}, execution: { taskSupport: "required" } }, {
    async createTask(_args, extra) {
      const task = await extra.taskStore.createTask({ ttl: 60_000, pollInterval: 20 });
      void (async () => {
        await extra.taskStore.updateTaskStatus(task.taskId, "input_required", "Who are you?");
        // relatedTask queues the request for the tasks/result stream (the SDK's types hide the option here).
        const queued = { timeout: 30_000, relatedTask: { taskId: task.taskId } };
        const answer = await extra.sendRequest({ method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } },
          ElicitResultSchema, queued);
        await extra.taskStore.storeTaskResult(task.taskId, "completed", { content: [{ type: "text", text: `hello ${String(answer.content?.name)}` }] });
      })();
      return { task };
    },
    getTask: (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: (_args, extra) => extra.taskStore.getTaskResult(extra.taskId) as never,
  });
  return server;
}

describe("tasks against the official SDK v1 server (experimental tasks, in memory)", () => {
  it("answers an elicitation the SDK queues for the tasks/result stream", async () => {
    const store = new InMemoryTaskStore();
    const bridge = createSdkBridge();
    await sdkServer(store, gate()).connect(bridge.sdk);
    const client = createClient({ info: { name: "t", version: "1" }, protocol: "2025-11-25", elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) } });
    clients.push(client);
    await client.connect(bridge.ours);
    expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "hello Ada" }]);
    store.cleanup();
  });

  it("reconnects after the connection drops and fetches the result from the next server instance", async () => {
    const store = new InMemoryTaskStore();
    const finish = gate();
    const bridges: ReturnType<typeof createSdkBridge>[] = [];
    const client = createClient({ info: { name: "t", version: "1" }, protocol: "2025-11-25", reconnect: { initialDelayMs: 1 }, transport: async () => {
      const bridge = createSdkBridge();
      bridges.push(bridge);
      await sdkServer(store, finish).connect(bridge.sdk);
      return bridge.ours;
    } });
    clients.push(client);
    const task = await client.callToolAsTask("crunch", { n: 21 });
    expect(task.taskId).toEqual(expect.any(String));
    await bridges[0]?.ours.close(new Error("network dropped"));
    finish.open();
    expect((await task.result()).content).toEqual([{ type: "text", text: "crunched 42" }]);
    expect(bridges.length).toBeGreaterThanOrEqual(2);
    expect(task.task?.status).toBe("completed");
    store.cleanup();
  });
});
