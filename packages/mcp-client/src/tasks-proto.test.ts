import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createServer, ProtocolError, type Server } from "@proto/mcp-server";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { isMcpClientError } from "./errors";

/** Tool tasks against our own @proto/mcp-server (`tasks: {}`), in both eras, in memory. */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

interface Fixture {
  readonly server: Server;
  /** Lets the `job` tool finish. */
  release(): void;
  /** Set when the `forever` tool's signal aborted (its task was cancelled). */
  readonly aborted: { value: boolean };
}

function fixture(): Fixture {
  const server = createServer({ name: "proto-tasks", version: "1.0.0" }, { tasks: { pollIntervalMs: 20 } });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const aborted = { value: false };
  server.tool(
    { name: "job", inputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, outputSchema: { type: "object", properties: { twice: { type: "number" } }, required: ["twice"] }, execution: { taskSupport: "optional" } },
    async ({ n }) => {
      await released;
      return { twice: n * 2 };
    },
  );
  server.tool({ name: "ask", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return `hello ${answer.action === "accept" ? String(answer.content?.name) : answer.action}`;
  });
  server.tool({ name: "crash", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, () => {
    throw new ProtocolError(-32603, "The job crashed");
  });
  server.tool({ name: "forever", inputSchema: { type: "object" }, execution: { taskSupport: "optional" } }, (_args, ctx) => new Promise((_resolve, reject) => {
    ctx.signal.addEventListener("abort", () => ((aborted.value = true), reject(ctx.signal.reason)), { once: true });
  }));
  return { server, release, aborted };
}

for (const protocol of ["2025-11-25", "2026-07-28"] as const) {
  describe(`tasks against our own server (${protocol})`, () => {
    async function setup(): Promise<{ client: Client; fix: Fixture }> {
      const fix = fixture();
      const [ours, theirs] = createMemoryTransportPair();
      await fix.server.connect(theirs);
      const client = createClient({ info: { name: "host", version: "1" }, protocol, elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) } });
      clients.push(client);
      await client.connect(ours);
      return { client, fix };
    }

    it("callTool drives a task-required tool, its elicitation answered by the usual handler", async () => {
      const { client } = await setup();
      expect((await client.callTool("ask")).content).toEqual([{ type: "text", text: "hello Ada" }]);
    });

    it("callToolAsTask: a task id, status events, the result checked against the outputSchema", async () => {
      const { client, fix } = await setup();
      const task = await client.callToolAsTask("job", { n: 21 });
      expect(task.taskId).toEqual(expect.any(String));
      expect(task.task?.status).toBe("working");
      const statuses: string[] = [];
      task.on("status", (info) => statuses.push(info.status));
      fix.release();
      expect((await task.result()).structuredContent).toEqual({ twice: 42 });
      expect(statuses.at(-1)).toBe("completed");
    });

    it("cancel() reaches the handler's signal and result() rejects TASK_CANCELLED", async () => {
      const { client, fix } = await setup();
      const task = await client.callToolAsTask("forever");
      await task.cancel();
      expect(isMcpClientError(await task.result().catch((e: unknown) => e), "TASK_CANCELLED")).toBe(true);
      await expect.poll(() => fix.aborted.value).toBe(true);
    });

    it.runIf(protocol === "2025-11-25")("a task past the ttl it asked for ends with a clear error", async () => {
      const { client } = await setup();
      const task = await client.callToolAsTask("forever", {}, { ttlMs: 50 });
      const error = await task.result().catch((e: unknown) => e);
      // Our server drops a task once its TTL elapses: the next poll learns it is gone.
      expect(isMcpClientError(error, "TASK_NOT_FOUND")).toBe(true);
      expect((error as Error).message).toContain(`task "${String(task.taskId)}"`);
    });

    it("a deliberate protocol error (ProtocolError) rejects with that error; an unknown id with TASK_NOT_FOUND", async () => {
      const { client } = await setup();
      const task = await client.callToolAsTask("crash");
      await expect(task.result()).rejects.toMatchObject({ code: -32603, message: "The job crashed" });
      const gone = await client.resumeTask("nope").result().catch((e: unknown) => e);
      expect(isMcpClientError(gone, "TASK_NOT_FOUND")).toBe(true);
    });
  });
}
