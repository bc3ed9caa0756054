import type { JsonRpcPayload, JsonRpcRequest, JsonRpcResponse, Principal } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { ProtocolError } from "../protocol-error";
import { createServer } from "../server";
import { connectRaw, initializeRaw } from "../test-helpers";
import type { RawClient } from "../test-helpers";

/**
 * Every status change of a task reaches its requestor: 2025-11-25 `notifications/tasks/status`
 * (the full `Task`, to the creating session only), 2026-07-28 `notifications/tasks` on the
 * `subscriptions/listen` streams that asked for the task's id (the `DetailedTask`).
 */
const NO_ARGS = { type: "object", properties: {} } as const;
const TASKS = "io.modelcontextprotocol/tasks";
const TASK_KEYS = ["createdAt", "lastUpdatedAt", "pollInterval", "status", "taskId", "ttl"];

function tasksServer() {
  const server = createServer({ name: "pushes", version: "1" }, { tasks: { pollIntervalMs: 10 } });
  let finish!: () => void;
  const gate = new Promise<void>((r) => (finish = r));
  let begin!: () => void;
  const started = new Promise<void>((r) => (begin = r));
  server.tool({ name: "ask", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    await started;
    await ctx.progress(1, 2, "warming up");
    const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
    await gate;
    return `hi ${r.action === "accept" ? String(r.content.name) : r.action}`;
  });
  server.tool({ name: "crash", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async () => {
    await gate;
    throw new ProtocolError(-32603, "it broke");
  });
  server.tool({ name: "hang", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason))));
  return { server, finish, begin };
}

let ids = 0;
const call = (client: RawClient, method: string, params: Record<string, unknown>): Promise<JsonRpcResponse> => client.call(`p${++ids}`, method, params);
const resultOf = (r: JsonRpcResponse): Record<string, unknown> => ("result" in r ? (r.result as Record<string, unknown>) : { error: r.error });
const isNote = (method: string, status?: string) => (p: JsonRpcPayload): boolean =>
  !Array.isArray(p) && "method" in p && !("id" in p) && p.method === method && (status === undefined || (p.params as { status?: string }).status === status);
const paramsOf = async (client: RawClient, method: string, status: string): Promise<Record<string, unknown>> =>
  ((await client.next(isNote(method, status))) as unknown as { params: Record<string, unknown> }).params;
const envelope = (params: Record<string, unknown>) => ({
  ...params,
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { [TASKS]: {} } } },
});

describe("notifications/tasks/status (2025-11-25)", () => {
  it("sends the full Task at every change, to the creating session only", async () => {
    const { server, finish, begin } = tasksServer();
    const mine = await connectRaw(server);
    const other = await connectRaw(server);
    await initializeRaw(mine, "2025-11-25", { elicitation: {} });
    await initializeRaw(other, "2025-11-25", { elicitation: {} });
    const { taskId } = resultOf(await call(mine, "tools/call", { name: "ask", arguments: {}, task: { ttl: 60_000 }, _meta: { progressToken: "pt" } })).task as { taskId: string };
    begin();
    const warming = await mine.next((p) => isNote("notifications/tasks/status", "working")(p) && (p as { params: { statusMessage?: string } }).params.statusMessage === "warming up");
    expect(Object.keys((warming as { params: object }).params).sort()).toEqual([...TASK_KEYS, "statusMessage"].sort());
    const waiting = await paramsOf(mine, "notifications/tasks/status", "input_required");
    expect(waiting).toMatchObject({ taskId, ttl: 60_000, pollInterval: 10 });
    expect(waiting).not.toHaveProperty("inputRequests");
    const pending = call(mine, "tasks/result", { taskId });
    const asked = (await mine.next((p) => !Array.isArray(p) && "method" in p && "id" in p && p.method === "elicitation/create")) as JsonRpcRequest;
    await mine.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ida" } } });
    expect((await paramsOf(mine, "notifications/tasks/status", "working")).taskId).toBe(taskId);
    finish();
    const done = await paramsOf(mine, "notifications/tasks/status", "completed");
    expect(done).not.toHaveProperty("result");
    expect(resultOf(await pending)).toMatchObject({ content: [{ text: "hi Ida" }] });
    expect(other.received.some(isNote("notifications/tasks/status"))).toBe(false);
    await server.close();
  });

  it("says failed with the error's message, and cancelled", async () => {
    const { server, finish } = tasksServer();
    const client = await connectRaw(server);
    await initializeRaw(client, "2025-11-25", { elicitation: {} });
    const crash = resultOf(await call(client, "tools/call", { name: "crash", arguments: {}, task: {} })).task as { taskId: string };
    finish();
    expect(await paramsOf(client, "notifications/tasks/status", "failed")).toMatchObject({ taskId: crash.taskId, statusMessage: "it broke" });
    const hang = resultOf(await call(client, "tools/call", { name: "hang", arguments: {}, task: {} })).task as { taskId: string };
    await call(client, "tasks/cancel", { taskId: hang.taskId });
    expect((await paramsOf(client, "notifications/tasks/status", "cancelled")).taskId).toBe(hang.taskId);
    await server.close();
  });
});

describe("notifications/tasks on subscriptions/listen (2026-07-28)", () => {
  function principal(subject: string): Principal {
    return { subject, scopes: [], claims: {} };
  }

  it("pushes each change of the listened tasks with what its status carries, and nothing of other tasks", async () => {
    const { server, finish, begin } = tasksServer();
    const client = await connectRaw(server, { principal: principal("ann") }, { initialized: {} });
    const ask = resultOf(await call(client, "tools/call", envelope({ name: "ask", arguments: {} }))).taskId as string;
    const crash = resultOf(await call(client, "tools/call", envelope({ name: "crash", arguments: {} }))).taskId as string;
    const hang = resultOf(await call(client, "tools/call", envelope({ name: "hang", arguments: {} }))).taskId as string;
    const unwatched = resultOf(await call(client, "tools/call", envelope({ name: "hang", arguments: {} }))).taskId as string;
    void call(client, "subscriptions/listen", envelope({ notifications: { taskIds: [ask, crash, hang] } }));
    await client.next(isNote("notifications/subscriptions/acknowledged"));
    begin();
    const waiting = await paramsOf(client, "notifications/tasks", "input_required");
    expect(waiting).toMatchObject({ taskId: ask, inputRequests: { "elicit-1": { method: "elicitation/create" } }, ttlMs: 3_600_000, pollIntervalMs: 10 });
    expect(waiting._meta).toHaveProperty(["io.modelcontextprotocol/subscriptionId"]);
    await call(client, "tasks/update", envelope({ taskId: ask, inputResponses: { "elicit-1": { action: "accept", content: { name: "Uma" } } } }));
    expect(await paramsOf(client, "notifications/tasks", "working")).toMatchObject({ taskId: ask });
    finish();
    expect(await paramsOf(client, "notifications/tasks", "completed")).toMatchObject({ taskId: ask, result: { content: [{ text: "hi Uma" }] } });
    expect(await paramsOf(client, "notifications/tasks", "failed")).toMatchObject({ taskId: crash, error: { code: -32603, message: "it broke" } });
    await call(client, "tasks/cancel", envelope({ taskId: hang }));
    await call(client, "tasks/cancel", envelope({ taskId: unwatched }));
    expect((await paramsOf(client, "notifications/tasks", "cancelled")).taskId).toBe(hang);
    resultOf(await call(client, "tasks/get", envelope({ taskId: unwatched })));
    const pushedIds = client.received.filter(isNote("notifications/tasks")).map((p) => (p as unknown as { params: { taskId: string } }).params.taskId);
    expect(pushedIds).not.toContain(unwatched);
    expect(client.received.some(isNote("notifications/tasks/status"))).toBe(false);
    await server.close();
  });
});
