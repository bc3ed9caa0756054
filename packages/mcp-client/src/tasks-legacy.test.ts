import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, RequestError, type RequestHandler } from "@proto/jsonrpc";
import type { ServerCapabilities } from "@proto/mcp-protocol";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { isMcpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

/** The 2025-11-25 task wire (basic/utilities/tasks) against scripted servers. */
const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Params = { readonly [key: string]: unknown };
const TASKS: ServerCapabilities = { tools: {}, tasks: { cancel: {}, requests: { tools: { call: {} } } } };
const tool = (name: string, taskSupport?: string) => ({ name, inputSchema: { type: "object" }, ...(taskSupport === undefined ? {} : { execution: { taskSupport } }) });
const tools: RequestHandler = () => ({ tools: [tool("required", "required"), tool("optional", "optional"), tool("plain")] });
const task = (status: string, extra: Params = {}) => ({ taskId: "L-1", status, createdAt: "2025-11-25T10:30:00Z", lastUpdatedAt: "2025-11-25T10:30:00Z", ttl: 60_000, pollInterval: 20, ...extra });
const done = { content: [{ type: "text", text: "done" }] };
const direct = { content: [{ type: "text", text: "direct" }] };
const callAnswer: RequestHandler = (p) => ((p as Params).task === undefined ? direct : { task: task("working") });

async function legacy(handlers: { readonly [method: string]: RequestHandler }, capabilities: ServerCapabilities = TASKS): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ capabilities, handlers: { "tools/list": tools, "tools/call": callAnswer, ...handlers } });
  const client = createClient({ info: { name: "t", version: "1" }, protocol: "2025-11-25" });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}
const sent = (server: ScriptedServer, method: string): Params[] => server.received.filter((r) => r.method === method).map((r) => r.params as Params);

describe("tasks on the 2025-11-25 wire", () => {
  it("callTool asks for a task only for a task-required tool, polls, then fetches tasks/result", async () => {
    let polls = 0;
    const { client, server } = await legacy({ "tasks/get": () => task(++polls < 2 ? "working" : "completed"), "tasks/result": () => done });
    expect(await client.callTool("required", { x: 1 })).toEqual(done);
    expect(await client.callTool("optional")).toEqual(direct);
    expect(sent(server, "tools/call")).toEqual([
      expect.objectContaining({ name: "required", arguments: { x: 1 }, task: {} }),
      expect.not.objectContaining({ task: expect.anything() }),
    ]);
    expect(sent(server, "tasks/result")).toEqual([expect.objectContaining({ taskId: "L-1" })]);
  });

  it("callToolAsTask sends the ttl where taskSupport allows, and falls back to a plain call where it does not", async () => {
    const { client, server } = await legacy({ "tasks/get": () => task("completed"), "tasks/result": () => done });
    const handle = await client.callToolAsTask("optional", {}, { ttlMs: 5_000 });
    expect(handle.taskId).toBe("L-1");
    expect(await handle.result()).toEqual(done);
    const plain = await client.callToolAsTask("plain");
    expect(plain.taskId).toBeUndefined();
    expect(await plain.result()).toEqual(direct);
    expect(sent(server, "tools/call").map((p) => p.task)).toEqual([{ ttl: 5_000 }, undefined]);
  });

  it("never asks for a task on a server without tasks.requests.tools.call", async () => {
    const { client, server } = await legacy({}, { tools: {} });
    expect((await client.callToolAsTask("required")).taskId).toBeUndefined();
    expect(sent(server, "tools/call")[0]).not.toHaveProperty("task");
  });

  it("honours pollInterval: no tasks/get before the interval has passed", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { client, server } = await legacy({
      "tools/call": () => ({ task: task("working", { pollInterval: 3_000 }) }),
      "tasks/get": () => task("completed", { pollInterval: 3_000 }),
      "tasks/result": () => done,
    });
    const handle = await client.callToolAsTask("required");
    await vi.advanceTimersByTimeAsync(2_999);
    expect(sent(server, "tasks/get")).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(await handle.result()).toEqual(done);
  });

  it("a notifications/tasks/status push wakes the watch before the next poll is due", async () => {
    let status = "working";
    const { client, server } = await legacy({
      "tools/call": () => ({ task: task("working", { pollInterval: 25_000 }) }),
      "tasks/get": () => task(status, { pollInterval: 25_000 }),
      "tasks/result": () => done,
    });
    const handle = await client.callToolAsTask("required");
    status = "completed";
    await server.peer.notify("notifications/tasks/status", task("completed"));
    expect(await handle.result()).toEqual(done);
    expect(handle.task?.status).toBe("completed");
    expect(sent(server, "tasks/get").length).toBeGreaterThanOrEqual(1);
  }, 10_000);

  it("a failed call rejects with the error tasks/result returns", async () => {
    const { client } = await legacy({ "tasks/get": () => task("failed"), "tasks/result": () => { throw new JsonRpcError(-32603, "boom"); } });
    await expect(client.callTool("required")).rejects.toMatchObject({ code: -32603, message: "boom" });
  });

  it("cancel racing completion: -32602 for a finished task, so the result is fetched and kept", async () => {
    const { client, server } = await legacy({
      "tools/call": () => ({ task: task("working", { pollInterval: 10_000 }) }),
      "tasks/get": () => task("completed"),
      "tasks/result": () => done,
      "tasks/cancel": () => { throw new JsonRpcError(-32602, "Cannot cancel task: already in terminal status 'completed'"); },
    });
    const handle = await client.callToolAsTask("required");
    expect((await handle.cancel())?.status).toBe("completed");
    expect(await handle.result()).toEqual(done);
    expect(sent(server, "tasks/cancel")).toHaveLength(1);
  });

  it("aborting callTool of a task-required tool cancels the task with tasks/cancel", async () => {
    const aborter = new AbortController();
    const { client, server } = await legacy({ "tasks/get": () => task("working"), "tasks/cancel": () => task("cancelled") });
    const call = client.callTool("required", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(sent(server, "tasks/get").length).toBeGreaterThan(0));
    aborter.abort();
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("ABORTED");
    await vi.waitFor(() => expect(sent(server, "tasks/cancel")).toEqual([expect.objectContaining({ taskId: "L-1" })]));
  });

  it("detach() stops watching without cancelling; close() ends every watch with CLIENT_CLOSED", async () => {
    const { client, server } = await legacy({ "tasks/get": () => task("working") });
    const a = await client.callToolAsTask("required");
    a.detach();
    expect(isMcpClientError(await a.result().catch((e: unknown) => e), "TASK_DETACHED")).toBe(true);
    const b = client.resumeTask("L-1");
    await client.close();
    expect(isMcpClientError(await b.result().catch((e: unknown) => e), "CLIENT_CLOSED")).toBe(true);
    expect(sent(server, "tasks/cancel")).toHaveLength(0);
  });

  it("refuses a malformed task answer with INVALID_RESULT", async () => {
    const { client } = await legacy({ "tools/call": () => ({ task: { taskId: "", status: "working" } }) });
    const error = await client.callTool("required").catch((e: unknown) => e);
    expect(isMcpClientError(error, "INVALID_RESULT")).toBe(true);
  });
});
