import type { JsonRpcPayload, JsonRpcResponse, Principal } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import type { Server } from "../server-types";
import { connectRaw, initializeRaw } from "../test-helpers";
import type { RawClient } from "../test-helpers";

const MODERN = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const NO_ARGS = { type: "object", properties: {} } as const;

function principal(subject: string): Principal {
  return { subject, scopes: [], claims: {} };
}

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A server whose tools the tests steer: `gate` finishes `work`, `signals` records each handler's signal. */
function taskServer(options: { defaultTtlMs?: number } = {}) {
  const server = createServer({ name: "tasks", version: "1.0.0" }, { tasks: { pollIntervalMs: 10, ...options } });
  const gates: { resolve: () => void }[] = [];
  const signals: AbortSignal[] = [];
  server.tool({ name: "work", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    signals.push(ctx.signal);
    const gate = deferred();
    gates.push(gate);
    await Promise.race([gate.promise, new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(ctx.signal.reason)))]);
    return `done ${ctx.taskId === undefined ? "plain" : "as task"}`;
  });
  server.tool({ name: "ask", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return `Hello, ${r.action === "accept" ? String(r.content?.name) : r.action}`;
  });
  server.tool({ name: "only_task", inputSchema: NO_ARGS, execution: { taskSupport: "required" } }, () => "ok");
  server.tool({ name: "plain", inputSchema: NO_ARGS }, () => "plain");
  return { server, gates, signals };
}

function result(response: JsonRpcResponse): Record<string, unknown> {
  if (!("result" in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result as Record<string, unknown>;
}

function errorCode(response: JsonRpcResponse): number | undefined {
  return "error" in response ? response.error.code : undefined;
}

let ids = 0;
async function legacy(server: Server, who?: string, caps: Record<string, unknown> = { elicitation: {} }): Promise<RawClient> {
  const client = await connectRaw(server, who === undefined ? {} : { principal: principal(who) });
  await initializeRaw(client, "2025-11-25", caps);
  return client;
}

function call(client: RawClient, method: string, params: Record<string, unknown>): Promise<JsonRpcResponse> {
  return client.call(`r${++ids}`, method, params);
}

async function until(client: RawClient, taskId: string, status: string, modern = false): Promise<Record<string, unknown>> {
  for (;;) {
    const got = result(await call(client, "tasks/get", modern ? envelope({ taskId }) : { taskId }));
    if (got.status === status) return got;
    await new Promise((r) => setTimeout(r, 5));
  }
}

function envelope(params: Record<string, unknown>, extensions: Record<string, unknown> = { [TASKS]: {} }): Record<string, unknown> {
  return { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions } } };
}

describe("tasks under 2025-11-25", () => {
  it("advertises capabilities.tasks and runs a call as a task that is polled, listed and fetched", async () => {
    const { server, gates } = taskServer();
    const client = await legacy(server);
    const init = client.received.find((p) => !Array.isArray(p) && "id" in p && p.id === "init") as JsonRpcResponse;
    expect(result(init).capabilities).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    const created = result(await call(client, "tools/call", { name: "work", arguments: {}, task: { ttl: 60_000 } }));
    const task = created.task as { taskId: string; status: string; ttl: number; pollInterval: number };
    expect(task).toMatchObject({ status: "working", ttl: 60_000, pollInterval: 10 });
    expect(task.taskId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const list = result(await call(client, "tasks/list", {}));
    expect((list.tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual([task.taskId]);
    const pending = call(client, "tasks/result", { taskId: task.taskId });
    await until(client, task.taskId, "working");
    while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
    gates[0]?.resolve();
    const final = result(await pending);
    expect(final).toMatchObject({ content: [{ type: "text", text: "done as task" }], _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } } });
    await client.next((p: JsonRpcPayload) => !Array.isArray(p) && "method" in p && p.method === "notifications/tasks/status" && (p.params as { status?: string }).status === "completed");
    expect(result(await call(client, "tools/call", { name: "plain", arguments: {} }))).toMatchObject({ content: [{ text: "plain" }] });
  });

  it("answers a task's input request late, on the tasks/result stream, with the related-task _meta", async () => {
    const { server } = taskServer();
    const client = await legacy(server);
    const { taskId } = result(await call(client, "tools/call", { name: "ask", arguments: {}, task: {} })).task as { taskId: string };
    await until(client, taskId, "input_required");
    await new Promise((r) => setTimeout(r, 30));
    expect(result(await call(client, "tasks/get", { taskId })).status).toBe("input_required");
    const pending = call(client, "tasks/result", { taskId });
    const asked = (await client.next((p) => !Array.isArray(p) && "method" in p && p.method === "elicitation/create")) as unknown as { id: string; params: { _meta: unknown } };
    expect(asked.params._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    await client.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } });
    expect(result(await pending)).toMatchObject({ content: [{ text: "Hello, Ada" }] });
  });

  it("keeps one outcome when cancellation races completion, and the handler's signal says which", async () => {
    for (let round = 0; round < 20; round++) {
      const { server, gates, signals } = taskServer();
      const client = await legacy(server);
      const { taskId } = result(await call(client, "tools/call", { name: "work", arguments: {}, task: {} })).task as { taskId: string };
      while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
      const cancelled = call(client, "tasks/cancel", { taskId });
      if (round % 2 === 0) gates[0]?.resolve();
      else queueMicrotask(() => gates[0]?.resolve());
      const answer = await cancelled;
      const status = result(await call(client, "tasks/get", { taskId })).status;
      if ("result" in answer) {
        expect(answer.result).toMatchObject({ taskId, status: "cancelled" });
        expect(status).toBe("cancelled");
        expect(signals[0]?.aborted).toBe(true);
      } else {
        expect(errorCode(answer)).toBe(-32602);
        expect(status).toBe("completed");
      }
      await new Promise((r) => setTimeout(r, 1));
      expect(result(await call(client, "tasks/get", { taskId })).status).toBe(status);
    }
  });

  it("stops and forgets a task whose TTL elapsed", async () => {
    const { server, signals } = taskServer();
    const client = await legacy(server);
    const { taskId } = result(await call(client, "tools/call", { name: "work", arguments: {}, task: { ttl: 20 } })).task as { taskId: string };
    while (errorCode(await call(client, "tasks/get", { taskId })) !== -32602) await new Promise((r) => setTimeout(r, 5));
    expect(errorCode(await call(client, "tasks/result", { taskId }))).toBe(-32602);
    // the store forgets it at the deadline; the handler's signal aborts when the TTL timer fires
    await Promise.all(signals.map((signal) => (signal.aborted ? undefined : new Promise((resolve) => signal.addEventListener("abort", resolve)))));
    expect(signals.map((signal) => (signal.reason as Error).message)).toEqual(signals.map(() => "The task's TTL elapsed"));
  });

  it("binds a task to the principal that made it: another principal is told it is unknown, the same one after a reconnect sees it", async () => {
    const { server, gates } = taskServer();
    const alice = await legacy(server, "alice");
    const { taskId } = result(await call(alice, "tools/call", { name: "work", arguments: {}, task: {} })).task as { taskId: string };
    const bob = await legacy(server, "bob");
    for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
      const answer = await call(bob, method, { taskId });
      expect(errorCode(answer)).toBe(-32602);
      expect(JSON.stringify(answer)).toContain("Task not found");
    }
    expect(result(await call(bob, "tasks/list", {})).tasks).toEqual([]);
    await alice.close();
    const again = await legacy(server, "alice");
    expect((result(await call(again, "tasks/list", {})).tasks as { taskId: string }[]).map((t) => t.taskId)).toEqual([taskId]);
    gates[0]?.resolve();
    expect(result(await call(again, "tasks/result", { taskId }))).toMatchObject({ content: [{ text: "done as task" }] });
  });

  it("refuses a required tool called plainly and a task on a tool that forbids it, with -32601", async () => {
    const { server } = taskServer();
    const client = await legacy(server);
    expect(errorCode(await call(client, "tools/call", { name: "only_task", arguments: {} }))).toBe(-32601);
    expect(errorCode(await call(client, "tools/call", { name: "plain", arguments: {}, task: {} }))).toBe(-32601);
    expect(errorCode(await call(client, "tasks/update", { taskId: "x", inputResponses: {} }))).toBe(-32601);
    expect(errorCode(await call(client, "tasks/list", { cursor: 5 }))).toBe(-32602);
  });

  it("grants TTLs within the server's bounds and refuses bad task options", async () => {
    const server = createServer({ name: "ttl", version: "1" }, { tasks: { maxTtlMs: 5000, defaultTtlMs: null } });
    server.tool({ name: "t", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, () => "ok");
    const client = await legacy(server);
    expect((result(await call(client, "tools/call", { name: "t", arguments: {}, task: { ttl: 99_999_999 } })).task as { ttl: unknown }).ttl).toBe(5000);
    expect((result(await call(client, "tools/call", { name: "t", arguments: {}, task: {} })).task as { ttl: unknown }).ttl).toBeNull();
    expect(() => createServer({ name: "x", version: "1" }, { tasks: { pollIntervalMs: 0.5 } })).toThrow(/pollIntervalMs must be a positive integer/);
  });

  it("says what to do when a task tool is registered without tasks", () => {
    const server = createServer({ name: "x", version: "1" });
    expect(() => server.tool({ name: "t", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, () => "")).toThrow(/tasks: \{\}/);
  });
});

describe("the tasks extension under 2026-07-28", () => {
  it("surfaces input requests on tasks/get and takes late answers through tasks/update", async () => {
    const { server } = taskServer();
    const client = await connectRaw(server, {}, { initialized: {} });
    const created = result(await call(client, "tools/call", envelope({ name: "ask", arguments: {} })));
    expect(created).toMatchObject({ resultType: "task", status: "working", pollIntervalMs: 10 });
    expect(created).not.toHaveProperty("task");
    const taskId = created.taskId as string;
    const waiting = await until(client, taskId, "input_required", true);
    expect(waiting.inputRequests).toEqual({ "elicit-1": expect.objectContaining({ method: "elicitation/create" }) });
    await new Promise((r) => setTimeout(r, 30));
    expect(result(await call(client, "tasks/update", envelope({ taskId, inputResponses: { nope: {}, "elicit-1": { action: "accept", content: { name: "Lin" } } } })))).toMatchObject({ resultType: "complete" });
    const done = await until(client, taskId, "completed", true);
    expect(done.result).toMatchObject({ content: [{ text: "Hello, Lin" }] });
    expect(JSON.stringify(done)).not.toContain("related-task");
    expect(errorCode(await call(client, "tasks/update", envelope({ taskId, inputResponses: 3 })))).toBe(-32602);
  });

  it("gates every tasks method on the extension, removes tasks/result and tasks/list, and hides other principals' tasks", async () => {
    const { server, gates } = taskServer();
    const alice = await connectRaw(server, { principal: principal("alice") }, { initialized: {} });
    const { taskId } = result(await call(alice, "tools/call", envelope({ name: "work", arguments: {} }))) as { taskId: string };
    expect(errorCode(await call(alice, "tasks/get", envelope({ taskId }, {})))).toBe(-32021);
    expect(errorCode(await call(alice, "tools/call", envelope({ name: "only_task", arguments: {} }, {})))).toBe(-32021);
    const plain = call(alice, "tools/call", envelope({ name: "work", arguments: {} }, {}));
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 1));
    gates[1]?.resolve();
    expect(result(await plain)).toMatchObject({ resultType: "complete", content: [{ text: "done plain" }] });
    expect(errorCode(await call(alice, "tasks/result", envelope({ taskId })))).toBe(-32601);
    expect(errorCode(await call(alice, "tasks/list", envelope({})))).toBe(-32601);
    const bob = await connectRaw(server, { principal: principal("bob") }, { initialized: {} });
    expect(errorCode(await call(bob, "tasks/get", envelope({ taskId })))).toBe(-32602);
    expect(errorCode(await call(bob, "tasks/cancel", envelope({ taskId })))).toBe(-32602);
    expect(result(await call(alice, "tasks/cancel", envelope({ taskId })))).toEqual(expect.objectContaining({ resultType: "complete" }));
    expect(result(await call(alice, "tasks/cancel", envelope({ taskId })))).not.toHaveProperty("status");
    expect((await until(alice, taskId, "cancelled", true)).status).toBe("cancelled");
  });

  it("pushes the detailed task on a listen that asked for its id, and refuses task ids without the extension", async () => {
    const { server, gates } = taskServer();
    const client = await connectRaw(server, { principal: principal("alice") }, { initialized: {} });
    const { taskId } = result(await call(client, "tools/call", envelope({ name: "work", arguments: {} }))) as { taskId: string };
    expect(errorCode(await call(client, "subscriptions/listen", envelope({ notifications: { taskIds: [taskId] } }, {})))).toBe(-32021);
    void call(client, "subscriptions/listen", envelope({ notifications: { taskIds: [taskId, "someone-elses"] } }));
    const ack = (await client.next((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/subscriptions/acknowledged")) as unknown as { params: { notifications: unknown } };
    expect(ack.params.notifications).toEqual({ taskIds: [taskId] });
    while (gates.length === 0) await new Promise((r) => setTimeout(r, 1));
    gates[0]?.resolve();
    const pushed = (await client.next(
      (p) => !Array.isArray(p) && "method" in p && p.method === "notifications/tasks" && (p.params as { status?: string }).status === "completed",
    )) as unknown as { params: Record<string, unknown> };
    expect(pushed.params).toMatchObject({ taskId, result: { content: [{ text: "done as task" }] }, ttlMs: 3_600_000 });
    expect(pushed.params._meta).toHaveProperty(["io.modelcontextprotocol/subscriptionId"]);
    await server.close();
  });
});
