/**
 * Interop: tool calls as tasks (MCP 2025-11-25 basic/utilities/tasks) from @proto/mcp-client
 * against the official reference server `@modelcontextprotocol/server-everything` from npm, as
 * a child process on stdio. Its `simulate-research-query` tool has `taskSupport: "required"`,
 * suggests a 1 s poll interval and runs four 1 s stages; with `ambiguous: true` it asks for an
 * elicitation, which the SDK delivers on the `tasks/result` stream with the related-task `_meta`.
 */
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, isMcpClientError, type Client, type ClientOptions, type TaskInfo } from "@proto/mcp-client";
import { MetaKey, type ElicitResult } from "@proto/mcp-protocol";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { textOf } from "../support/wait";

const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
const TOOL = "simulate-research-query";
const open: Client[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.close()));
});

async function start(options: Partial<ClientOptions> = {}): Promise<Client> {
  const client = createClient({ info: { name: "tasks-interop", version: "0.0.1" }, protocol: "2025-11-25", ...options });
  open.push(client);
  await client.connect(createStdioClientTransport({ command: process.execPath, args: [everythingBin, "stdio"] }));
  return client;
}

describe("tasks against the official server-everything (stdio)", () => {
  it("declares tool tasks, and callTool drives a task-required tool to its result transparently", async () => {
    const client = await start();
    expect(client.server?.capabilities.tasks?.requests?.tools?.call).toBeDefined();
    const tool = (await client.listAllTools()).find((t) => t.name === TOOL);
    expect(tool?.execution?.taskSupport).toBe("required");
    const result = await client.callTool(TOOL, { topic: "tides" });
    expect(result.isError).not.toBe(true);
    expect(textOf(result)).toContain("# Research Report: tides");
  }, 20_000);

  it("callToolAsTask: status events, an elicitation answered late on the tasks/result stream, then the result", async () => {
    const seen: { taskId: unknown }[] = [];
    const client = await start({
      elicitation: {
        async form(params, context): Promise<ElicitResult> {
          seen.push({ taskId: (context.meta?.[MetaKey.RelatedTask] as { taskId?: unknown } | undefined)?.taskId });
          // The user takes their time: the task waits in input_required meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          const first = (params.requestedSchema.properties.interpretation as { oneOf?: { const: string }[] }).oneOf?.[1]?.const;
          return { action: "accept", content: { interpretation: first ?? "historical" } };
        },
      },
    });
    const task = await client.callToolAsTask(TOOL, { topic: "tides", ambiguous: true });
    const statuses: TaskInfo["status"][] = [];
    task.on("status", (info) => statuses.push(info.status));
    expect(task.taskId).toEqual(expect.any(String));
    expect(task.task?.pollIntervalMs).toBe(1_000);
    const result = await task.result();
    expect(textOf(result)).toContain("Clarification**: historical");
    expect(seen).toEqual([{ taskId: task.taskId }]);
    expect(statuses).toContain("input_required");
    expect(statuses.at(-1)).toBe("completed");
    expect(task.task?.status).toBe("completed");
  }, 30_000);

  it("cancel() stops a running task: the server reports it cancelled and result() rejects with TASK_CANCELLED", async () => {
    const client = await start();
    const task = await client.callToolAsTask(TOOL, { topic: "tides" });
    const after = await task.cancel();
    expect(after?.status).toBe("cancelled");
    const error = await task.result().catch((e: unknown) => e);
    expect(isMcpClientError(error, "TASK_CANCELLED")).toBe(true);
    // Cancelling again is a no-op with the same answer.
    expect((await task.cancel())?.status).toBe("cancelled");
  }, 20_000);

  it("an unknown task id gives TASK_NOT_FOUND with the server's -32602 as the cause", async () => {
    const client = await start();
    const error = await client.resumeTask("no-such-task").result().catch((e: unknown) => e);
    expect(isMcpClientError(error, "TASK_NOT_FOUND")).toBe(true);
    expect((error as Error).message).toContain('"no-such-task"');
    expect(((error as Error).cause as { code?: unknown }).code).toBe(-32602);
  }, 20_000);

  it("a second handle on the same task (resumeTask) sees the same result", async () => {
    const client = await start();
    const task = await client.callToolAsTask(TOOL, { topic: "reefs" });
    const again = client.resumeTask(task.taskId as string);
    const [a, b] = await Promise.all([task.result(), again.result()]);
    expect(textOf(a)).toContain("# Research Report: reefs");
    expect(textOf(b)).toBe(textOf(a));
  }, 20_000);
});
