import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, type JsonRpcParams, type RequestHandler } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import type { ElicitResult } from "@proto/mcp-protocol";
import { createClient } from "./client";
import { isMcpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

/** The 2026-07-28 tasks extension (ext-tasks specification/draft) against scripted servers. */
const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Params = { readonly [key: string]: unknown };
const EXT = "io.modelcontextprotocol/tasks";
const discover: RequestHandler = () => ({
  resultType: "complete", supportedVersions: ["2026-07-28"], capabilities: { tools: {}, extensions: { [EXT]: {} } }, ttlMs: 0, cacheScope: "public",
  _meta: { "io.modelcontextprotocol/serverInfo": { name: "modern-tasks", version: "2" } },
});
const tools: RequestHandler = () => ({ resultType: "complete", ttlMs: 0, cacheScope: "public", tools: [{ name: "slow", inputSchema: { type: "object" } }] });
const base = { taskId: "t-1", createdAt: "2026-01-01T00:00:00Z", lastUpdatedAt: "2026-01-01T00:00:00Z", ttlMs: 60_000, pollIntervalMs: 20 };
const created = { resultType: "task", ...base, status: "working" };
const done = { content: [{ type: "text", text: "done" }], isError: false };
const ask = { who: { method: "elicitation/create", params: { mode: "form", message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } };

async function modern(handlers: { readonly [method: string]: RequestHandler }, options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": tools, "tools/call": () => created, ...handlers } });
  const client = createClient({ info: { name: "t", version: "1" }, elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) }, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

const sent = (server: ScriptedServer, method: string): Params[] => server.received.filter((r) => r.method === method).map((r) => r.params as Params);
const caps = (params: JsonRpcParams | Params | undefined): unknown => ((params as Params | undefined)?._meta as Params | undefined)?.["io.modelcontextprotocol/clientCapabilities"];

describe("tasks on the 2026-07-28 wire", () => {
  it("callTool drives a task the server made: polls tasks/get, takes the inline result, declares the extension per request", async () => {
    let polls = 0;
    const { client, server } = await modern({ "tasks/get": () => ({ resultType: "complete", ...base, ...(++polls < 3 ? { status: "working" } : { status: "completed", result: done }) }) });
    expect(await client.callTool("slow")).toEqual(done);
    expect(polls).toBe(3);
    expect(caps(sent(server, "tools/call")[0])).toMatchObject({ extensions: { [EXT]: {} } });
    expect(caps(sent(server, "tasks/get")[0])).toMatchObject({ extensions: { [EXT]: {} } });
    expect(sent(server, "tasks/get")[0]).toMatchObject({ taskId: "t-1" });
    expect(server.received.map((r) => r.method)).not.toContain("tasks/result");
  });

  it("callToolAsTask when the server answers directly: a handle without taskId whose result() is that answer", async () => {
    const { client, server } = await modern({ "tools/call": () => ({ resultType: "complete", ...done }) });
    const task = await client.callToolAsTask("slow");
    expect(task.taskId).toBeUndefined();
    expect(task.task).toBeUndefined();
    expect(await task.result()).toMatchObject(done);
    expect(await task.cancel()).toBeUndefined();
    expect(sent(server, "tools/call")[0]).not.toHaveProperty("task");
    expect(server.received.map((r) => r.method)).not.toContain("tasks/get");
  });

  it("answers input requests late, once per key across polls, each on its own tasks/update, and keeps polling meanwhile", async () => {
    let answer!: (result: ElicitResult) => void;
    const form = vi.fn(() => new Promise<ElicitResult>((resolve) => (answer = resolve)));
    let updated = false;
    const { client, server } = await modern({
      "tasks/get": () => ({ resultType: "complete", ...base, ...(updated ? { status: "completed", result: done } : { status: "input_required", inputRequests: ask }) }),
      "tasks/update": () => ((updated = true), { resultType: "complete" }),
    }, { elicitation: { form } });
    const task = await client.callToolAsTask("slow");
    await vi.waitFor(() => expect(sent(server, "tasks/get").length).toBeGreaterThanOrEqual(4));
    expect(form).toHaveBeenCalledTimes(1);
    const [, context] = form.mock.calls[0] as unknown as [unknown, { meta: Params }];
    expect(context.meta["io.modelcontextprotocol/related-task"]).toEqual({ taskId: "t-1" });
    answer({ action: "accept", content: { name: "Ada" } });
    expect(await task.result()).toEqual(done);
    expect(sent(server, "tasks/update")).toEqual([expect.objectContaining({ taskId: "t-1", inputResponses: { who: { action: "accept", content: { name: "Ada" } } } })]);
    expect(form).toHaveBeenCalledTimes(1);
  });

  it("an input request the client cannot answer cancels the task and rejects with INPUT_UNAVAILABLE", async () => {
    const { client, server } = await modern({
      "tasks/get": () => ({ resultType: "complete", ...base, status: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } }),
      "tasks/cancel": () => ({ resultType: "complete" }),
    }, { tasks: { listen: false } });
    const error = await client.callTool("slow").catch((e: unknown) => e);
    expect(isMcpClientError(error, "INPUT_UNAVAILABLE")).toBe(true);
    await vi.waitFor(() => expect(sent(server, "tasks/cancel")).toEqual([expect.objectContaining({ taskId: "t-1" })]));
    expect(server.notifications.map((n) => n.method)).not.toContain("notifications/cancelled");
  });

  it("honours pollIntervalMs: no tasks/get before the interval has passed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { client, server } = await modern({
      "tools/call": () => ({ ...created, pollIntervalMs: 5_000 }),
      "tasks/get": () => ({ resultType: "complete", ...base, pollIntervalMs: 5_000, status: "completed", result: done }),
    }, { tasks: { listen: false } });
    const task = await client.callToolAsTask("slow");
    await vi.advanceTimersByTimeAsync(4_999);
    expect(sent(server, "tasks/get")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await task.result()).toEqual(done);
    expect(sent(server, "tasks/get")).toHaveLength(1);
  });

  it("a failed task rejects with the server's JSON-RPC error; isError results count as completed", async () => {
    const { client } = await modern({ "tasks/get": () => ({ resultType: "complete", ...base, status: "failed", error: { code: -32603, message: "rate limited", data: { retry: 1 } } }) });
    const error = await client.callTool("slow").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32603, message: "rate limited", data: { retry: 1 } });
  });

  it("an unknown or expired task is TASK_NOT_FOUND; a malformed one INVALID_RESULT", async () => {
    const { client } = await modern({ "tasks/get": (p) => {
      if ((p as Params).taskId === "bad") return { resultType: "complete", taskId: "bad", status: "done" };
      throw new JsonRpcError(-32602, "Failed to retrieve task: Task has expired");
    } });
    const gone = await client.resumeTask("t-1").result().catch((e: unknown) => e);
    expect(isMcpClientError(gone, "TASK_NOT_FOUND")).toBe(true);
    expect((gone as Error).message).toContain("Task has expired");
    const bad = await client.resumeTask("bad").result().catch((e: unknown) => e);
    expect(isMcpClientError(bad, "INVALID_RESULT")).toBe(true);
  });

  it("cancel racing completion: a task that finished before the cancel keeps its result", async () => {
    const { client, server } = await modern({
      "tools/call": () => ({ ...created, pollIntervalMs: 10_000 }),
      "tasks/get": () => ({ resultType: "complete", ...base, status: "completed", result: done }),
      "tasks/cancel": () => ({ resultType: "complete" }),
    }, { tasks: { listen: false } });
    const task = await client.callToolAsTask("slow");
    expect((await task.cancel())?.status).toBe("completed");
    expect(await task.result()).toEqual(done);
    expect(sent(server, "tasks/cancel")).toEqual([expect.objectContaining({ taskId: "t-1" })]);
  });

  it("cancel of a running task: acknowledged, result() rejects TASK_CANCELLED, polling stops", async () => {
    const { client, server } = await modern({
      "tasks/get": () => ({ resultType: "complete", ...base, status: "working" }),
      "tasks/cancel": () => ({ resultType: "complete" }),
    });
    const task = await client.callToolAsTask("slow");
    await task.cancel();
    expect(isMcpClientError(await task.result().catch((e: unknown) => e), "TASK_CANCELLED")).toBe(true);
    const polls = sent(server, "tasks/get").length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(sent(server, "tasks/get")).toHaveLength(polls);
  });

  it("listens with taskIds and settles on the pushed notifications/tasks without waiting for the next poll", async () => {
    let listenParams: Params | undefined;
    const { client, server } = await modern({
      "tools/call": () => ({ ...created, pollIntervalMs: 25_000 }),
      "tasks/get": () => ({ resultType: "complete", ...base, pollIntervalMs: 25_000, status: "working" }),
      "subscriptions/listen": (params) => {
        listenParams = params as Params;
        return new Promise(() => {});
      },
    });
    const task = await client.callToolAsTask("slow");
    await vi.waitFor(() => expect((listenParams?.notifications as Params | undefined)?.taskIds).toEqual(["t-1"]));
    expect(caps(listenParams)).toMatchObject({ extensions: { [EXT]: {} } });
    await server.peer.notify("notifications/tasks", { ...base, status: "completed", result: done, _meta: { "io.modelcontextprotocol/subscriptionId": 1 } });
    expect(await task.result()).toEqual(done);
  }, 10_000);

  it("rides out a dropped connection: the next poll reconnects and fetches the result", async () => {
    let polls = 0;
    const servers: ScriptedServer[] = [];
    const handlers = {
      "server/discover": discover, "tools/list": tools, "tools/call": () => created,
      "tasks/get": () => ({ resultType: "complete", ...base, ...(++polls < 2 ? { status: "working" } : { status: "completed", result: done }) }),
    };
    const client = createClient({ info: { name: "t", version: "1" }, reconnect: { initialDelayMs: 1 }, transport: async () => {
      const server = await createScriptedServer({ handlers });
      servers.push(server);
      return server.transport;
    } });
    clients.push(client);
    const task = await client.callToolAsTask("slow");
    await servers[0]?.kill();
    expect(await task.result()).toEqual(done);
    expect(servers.length).toBeGreaterThanOrEqual(2);
  });
});
