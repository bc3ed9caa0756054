import type { JsonRpcPayload, JsonRpcRequest } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectRaw, initializeRaw } from "../test-helpers";
import type { RawClient } from "../test-helpers";

/** The server's side of task-augmented requests to the client, against a raw 2025-11-25 client. */
const TASKS = { tasks: { requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } } };
const SCHEMA = { type: "object", properties: { name: { type: "string" } } } as const;

function serverWithAsk() {
  const server = createServer({ name: "s", version: "1" });
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: SCHEMA }, { task: { ttlMs: 9_000 } });
    return r.action === "accept" ? `hi ${String(r.content.name)}` : r.action;
  });
  return server;
}

const isRequest = (method: string) => (p: JsonRpcPayload): boolean => !Array.isArray(p) && "method" in p && "id" in p && p.method === method;
async function answer(client: RawClient, method: string, result: unknown): Promise<JsonRpcRequest> {
  const request = (await client.next(isRequest(method))) as JsonRpcRequest;
  await client.send({ jsonrpc: "2.0", id: request.id, result: result as Record<string, unknown> });
  return request;
}
const task = (status: string, pollInterval = 10) => ({ taskId: "c1", status, createdAt: "2025-01-01T00:00:00Z", lastUpdatedAt: "2025-01-01T00:00:00Z", ttl: 9_000, pollInterval });

describe("task-augmented requests to the client (2025-11-25)", () => {
  it("sends params.task, polls tasks/get until terminal, and resolves ctx.elicit with tasks/result", async () => {
    const client = await connectRaw(serverWithAsk());
    await initializeRaw(client, "2025-11-25", { elicitation: {}, ...TASKS });
    const call = client.call("c", "tools/call", { name: "ask", arguments: {} });
    const asked = await answer(client, "elicitation/create", { task: task("working") });
    expect(asked.params).toMatchObject({ task: { ttl: 9_000 }, message: "Name?" });
    expect((await answer(client, "tasks/get", task("working"))).params).toEqual({ taskId: "c1" });
    await answer(client, "tasks/get", task("completed"));
    await answer(client, "tasks/result", { action: "accept", content: { name: "Lin" }, _meta: { "io.modelcontextprotocol/related-task": { taskId: "c1" } } });
    expect(await call).toMatchObject({ result: { content: [{ text: "hi Lin" }] } });
  });

  it("goes to tasks/result at once for input_required, and takes a plain answer from a client that ignored params.task", async () => {
    const client = await connectRaw(serverWithAsk());
    await initializeRaw(client, "2025-11-25", { elicitation: {}, ...TASKS });
    const first = client.call("c1", "tools/call", { name: "ask", arguments: {} });
    await answer(client, "elicitation/create", { task: task("input_required") });
    await answer(client, "tasks/result", { action: "decline" });
    expect(await first).toMatchObject({ result: { content: [{ text: "decline" }] } });
    const second = client.call("c2", "tools/call", { name: "ask", arguments: {} });
    await answer(client, "elicitation/create", { action: "accept", content: { name: "Plain" } });
    expect(await second).toMatchObject({ result: { content: [{ text: "hi Plain" }] } });
  });

  it("asks the plain way when the client did not declare tasks.requests", async () => {
    const client = await connectRaw(serverWithAsk());
    await initializeRaw(client, "2025-11-25", { elicitation: {} });
    const call = client.call("c", "tools/call", { name: "ask", arguments: {} });
    const asked = await answer(client, "elicitation/create", { action: "accept", content: { name: "Bo" } });
    expect(asked.params).not.toHaveProperty("task");
    expect(await call).toMatchObject({ result: { content: [{ text: "hi Bo" }] } });
  });

  it("sends tasks/cancel when the call is cancelled while the client's task runs", async () => {
    const client = await connectRaw(serverWithAsk());
    await initializeRaw(client, "2025-11-25", { elicitation: {}, ...TASKS });
    void client.call("c", "tools/call", { name: "ask", arguments: {} });
    await answer(client, "elicitation/create", { task: task("working", 50) });
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "c" } });
    expect((await answer(client, "tasks/cancel", task("cancelled"))).params).toEqual({ taskId: "c1" });
  });

  it("refuses a bad ttl with a TypeError that says what to pass", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool({ name: "bad", inputSchema: { type: "object" } }, async (_a, ctx) => {
      await ctx.elicit({ message: "?", requestedSchema: SCHEMA }, { task: { ttlMs: -1 } });
      return "no";
    });
    const client = await connectRaw(server);
    await initializeRaw(client, "2025-11-25", { elicitation: {}, ...TASKS });
    const response = await client.call("c", "tools/call", { name: "bad", arguments: {} });
    expect(JSON.stringify(response)).toMatch(/ttlMs must be a positive integer/);
  });
});
