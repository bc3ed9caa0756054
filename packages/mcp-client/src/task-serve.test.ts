import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcPayload, Transport } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createServer } from "@proto/mcp-server";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";

/** The client running its server's sampling and elicitation as tasks (2025-11-25), against our server, in memory. */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const textOf = (result: { content: readonly unknown[] }): string => (result.content[0] as { text: string }).text;
const SCHEMA = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;

/** Records what the client sends to the server. */
function recording(transport: Transport, sent: JsonRpcPayload[]): Transport {
  return {
    start: (sink) => transport.start({ ...sink, payload: (payload, exchange) => (sent.push(payload), sink.payload(payload, exchange)) }),
    send: (payload) => transport.send(payload),
    close: (reason) => transport.close(reason),
  };
}

async function setup(options: Partial<ClientOptions>, gate?: Promise<void>) {
  const server = createServer({ name: "asks", version: "1" }, { requestTimeoutMs: 5_000 });
  const aborted: unknown[] = [];
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: SCHEMA }, { task: true });
    return `hello ${r.action === "accept" ? r.content.name : r.action}`;
  });
  server.tool({ name: "sample", inputSchema: { type: "object" } }, async (_a, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }, { task: { ttlMs: 5_000 } });
    return `model said ${(r.content as { text: string }).text}`;
  });
  server.tool({ name: "twice", inputSchema: { type: "object" } }, async (_a, ctx) => {
    const both = await Promise.allSettled([1, 2].map(() => ctx.elicit({ message: "Name?", requestedSchema: SCHEMA }, { task: true })));
    return both.map((r) => r.status).join(",");
  });
  const [ours, theirs] = createMemoryTransportPair();
  const sent: JsonRpcPayload[] = [];
  const session = server.connect(recording(theirs, sent));
  const client = createClient({
    info: { name: "host", version: "1" },
    protocol: "2025-11-25",
    elicitation: {
      form: async (_p, context) => {
        if (gate !== undefined) await Promise.race([gate, new Promise((_r, reject) => context.signal.addEventListener("abort", () => (aborted.push(context.signal.reason), reject(context.signal.reason))))]);
        return { action: "accept", content: { name: "Ada" } };
      },
    },
    sampling: { createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "hello" } }) },
    ...options,
  });
  clients.push(client);
  await client.connect(ours);
  return { client, session: await session, sent, aborted, server };
}

const responses = (sent: JsonRpcPayload[]): Record<string, unknown>[] =>
  sent.filter((p): p is JsonRpcPayload & { result: Record<string, unknown> } => !Array.isArray(p) && "result" in p).map((p) => p.result);

describe("task-augmented sampling and elicitation (2025-11-25)", () => {
  it("declares tasks.requests for the handlers it has, answers a CreateTaskResult and serves the result", async () => {
    const { client, session, sent } = await setup({ tasks: { serveRequests: { pollIntervalMs: 10 } } });
    expect(session.clientCapabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } });
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
    const created = responses(sent).find((r) => "task" in r)?.task as Record<string, unknown>;
    expect(created).toMatchObject({ taskId: expect.any(String), status: "working", pollInterval: 10 });
    const result = responses(sent).find((r) => r.action === "accept");
    expect(result?._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId: created.taskId } });
    expect(sent.some((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/tasks/status" && (p.params as { status?: string }).status === "completed")).toBe(true);
    expect(textOf(await client.callTool("sample", {}))).toBe("model said hello");
    expect((responses(sent).filter((r) => "task" in r)[1]?.task as { ttl: number }).ttl).toBe(5_000);
  });

  it("without the option, declares no tasks and the server asks the plain way", async () => {
    const { client, session, sent } = await setup({});
    expect(session.clientCapabilities.tasks).toBeUndefined();
    expect(textOf(await client.callTool("ask", {}))).toBe("hello Ada");
    expect(responses(sent).some((r) => "task" in r)).toBe(false);
  });

  it("cancels the client's task when the server's request is cancelled: the handler's signal aborts", async () => {
    const { client, sent, aborted } = await setup({ tasks: { serveRequests: { pollIntervalMs: 10 } } }, new Promise(() => undefined));
    const controller = new AbortController();
    const call = client.callTool("ask", {}, { signal: controller.signal });
    while (!responses(sent).some((r) => "task" in r)) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error("changed my mind"));
    await expect(call).rejects.toThrow();
    while (aborted.length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(String(aborted[0])).toMatch(/cancelled/);
    expect(sent.some((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/tasks/status" && (p.params as { status?: string }).status === "cancelled")).toBe(true);
  });

  it("keeps within its bound: a task beyond maxTasks running at once is refused, the other runs", async () => {
    let open!: () => void;
    const { client } = await setup({ tasks: { serveRequests: { maxTasks: 1, pollIntervalMs: 10 } } }, new Promise<void>((r) => (open = r)));
    const call = client.callTool("twice", {});
    setTimeout(() => open(), 50);
    expect(textOf(await call)).toBe("fulfilled,rejected");
  });

  it("says what to do with bad options", () => {
    expect(() => createClient({ info: { name: "h", version: "1" }, tasks: { serveRequests: 3 as unknown as boolean } })).toThrow(/serveRequests/);
    expect(() => createClient({ info: { name: "h", version: "1" }, tasks: { serveRequests: { maxTasks: 0 } } })).toThrow(/maxTasks/);
  });
});
