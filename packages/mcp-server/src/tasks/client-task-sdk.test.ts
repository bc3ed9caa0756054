import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createSdkBridge } from "../../../../test/support/sdk-bridge";
import { createServer } from "../server";

/** Interop: the official SDK v1 client, with client-side tasks, answering our server's task-augmented elicitation (2025-11-25). */
describe("task-augmented elicitation to the official SDK v1 client", () => {
  it("polls the SDK client's task and resolves ctx.elicit with its result", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } }, { task: true });
      return r.action === "accept" ? `hi ${String(r.content.name)}` : r.action;
    });
    const bridge = createSdkBridge();
    await server.connect(bridge.ours);
    const client = new Client({ name: "sdk", version: "1" }, { capabilities: { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } }, taskStore: new InMemoryTaskStore() });
    let tasked = false;
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      const result = { action: "accept" as const, content: { name: "Sdk" } };
      if (request.params.task === undefined || extra.taskStore === undefined) return result;
      tasked = true;
      const task = await extra.taskStore.createTask({ ttl: extra.taskRequestedTtl ?? null });
      await extra.taskStore.storeTaskResult(task.taskId, "completed", result);
      return { task };
    });
    await client.connect(bridge.sdk);
    const result = await client.request({ method: "tools/call", params: { name: "ask", arguments: {} } }, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "hi Sdk" }]);
    expect(tasked).toBe(true);
    await client.close();
    await server.close();
  });
});
