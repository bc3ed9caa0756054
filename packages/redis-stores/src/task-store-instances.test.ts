/**
 * Two server instances sharing one real redis-server through the Redis task store: a task made
 * through one is polled, answered, cancelled and fetched through the other, in both revisions;
 * a task whose instance stops renewing its lease ends failed.
 */
import type { JsonRpcResponse } from "@proto/jsonrpc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Daemon } from "../../../test/support/daemons";
import { missingDaemons, startRedis } from "../../../test/support/daemons";
import { createServer } from "../../mcp-server/src/server";
import { LEASE_LOST_ERROR } from "../../mcp-server/src/tasks/store";
import { connectRaw, initializeRaw } from "../../mcp-server/src/test-helpers";
import type { RawClient } from "../../mcp-server/src/test-helpers";
import { connectRedis } from "./connection";
import type { RedisConnections } from "./connection";
import { createRedisTaskStore } from "./task-store";

const missing = missingDaemons("redis-server");
const NO_ARGS = { type: "object", properties: {} } as const;
const envelope = (params: Record<string, unknown>) => ({
  ...params,
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, extensions: { "io.modelcontextprotocol/tasks": {} } } },
});
let ids = 0;
const call = async (client: RawClient, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
  const response: JsonRpcResponse = await client.call(`r${++ids}`, method, params);
  if (!("result" in response)) throw new Error(`${method}: ${JSON.stringify(response.error)}`);
  return response.result as Record<string, unknown>;
};
async function until(client: RawClient, taskId: string, status: string, modern = true): Promise<Record<string, unknown>> {
  for (;;) {
    const got = await call(client, "tasks/get", modern ? envelope({ taskId }) : { taskId });
    if (got.status === status) return got;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(missing !== undefined)(`tasks across two instances on one redis-server${missing === undefined ? "" : ` (${missing})`}`, () => {
  let redis: Daemon;
  const opened: RedisConnections[] = [];
  const aborted: unknown[] = [];
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(opened.map((c) => c.close()));
    await redis?.stop();
  });

  async function instance(leaseMs = 30_000) {
    const connections = await connectRedis({ url: `redis://127.0.0.1:${redis.port}` });
    opened.push(connections);
    const store = createRedisTaskStore(connections.client, { keyPrefix: "two:" });
    const server = createServer({ name: "i", version: "1" }, { tasks: { store, pollIntervalMs: 20, leaseMs } });
    server.tool({ name: "ask", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
      const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } });
      return `Hello, ${r.action === "accept" ? String(r.content?.name) : r.action}`;
    });
    server.tool({ name: "hang", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, (_a, ctx) =>
      new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => (aborted.push(ctx.signal.reason), reject(ctx.signal.reason)))));
    return { server, connections };
  }

  it("2026-07-28: created on one, answered, polled and its result read on the other", async () => {
    const [a, b] = [await instance(), await instance()];
    const [ca, cb] = [await connectRaw(a.server), await connectRaw(b.server)];
    const { taskId } = (await call(ca, "tools/call", envelope({ name: "ask", arguments: {} }))) as { taskId: string };
    const waiting = await until(cb, taskId, "input_required");
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["elicit-1"]);
    await call(cb, "tasks/update", envelope({ taskId, inputResponses: { "elicit-1": { action: "accept", content: { name: "Lin" } } } }));
    const done = await until(cb, taskId, "completed");
    expect(done.result).toMatchObject({ content: [{ text: "Hello, Lin" }] });
    expect((await until(ca, taskId, "completed")).result).toEqual(done.result);
    await Promise.all([a.server.close(), b.server.close()]);
  });

  it("2025-11-25: tasks/result on the other instance carries the input request and gets the result", async () => {
    const [a, b] = [await instance(), await instance()];
    const [ca, cb] = [await connectRaw(a.server), await connectRaw(b.server)];
    await initializeRaw(ca, "2025-11-25", { elicitation: {} });
    await initializeRaw(cb, "2025-11-25", { elicitation: {} });
    const { taskId } = (await call(ca, "tools/call", { name: "ask", arguments: {}, task: {} })).task as { taskId: string };
    await until(cb, taskId, "input_required", false);
    const pending = call(cb, "tasks/result", { taskId });
    const asked = (await cb.next((p) => !Array.isArray(p) && "method" in p && p.method === "elicitation/create")) as unknown as { id: string; params: { _meta: unknown } };
    expect(asked.params._meta).toEqual({ "io.modelcontextprotocol/related-task": { taskId } });
    await cb.send({ jsonrpc: "2.0", id: asked.id, result: { action: "accept", content: { name: "Ada" } } });
    expect(await pending).toMatchObject({ content: [{ text: "Hello, Ada" }], _meta: { "io.modelcontextprotocol/related-task": { taskId } } });
    await Promise.all([a.server.close(), b.server.close()]);
  });

  it("a cancel through the other instance reaches the handler's signal", async () => {
    const [a, b] = [await instance(), await instance()];
    const [ca, cb] = [await connectRaw(a.server), await connectRaw(b.server)];
    const { taskId } = (await call(ca, "tools/call", envelope({ name: "hang", arguments: {} }))) as { taskId: string };
    const before = aborted.length;
    await call(cb, "tasks/cancel", envelope({ taskId }));
    while (aborted.length === before) await new Promise((r) => setTimeout(r, 10));
    expect(String(aborted.at(-1))).toMatch(/another server instance/);
    expect((await until(ca, taskId, "cancelled")).status).toBe("cancelled");
    await Promise.all([a.server.close(), b.server.close()]);
  });

  it("a task whose instance died (stopped renewing its lease) is failed, not left working", async () => {
    const [a, b] = [await instance(300), await instance(300)];
    const [ca, cb] = [await connectRaw(a.server), await connectRaw(b.server)];
    const { taskId } = (await call(ca, "tools/call", envelope({ name: "hang", arguments: {} }))) as { taskId: string };
    expect((await call(cb, "tasks/get", envelope({ taskId }))).status).toBe("working");
    a.connections.client.destroy(); // instance A can no longer reach Redis: its renewals stop
    const failed = await until(cb, taskId, "failed");
    expect(failed.error).toEqual(LEASE_LOST_ERROR);
    await b.server.close();
    await a.server.close();
  });
});
