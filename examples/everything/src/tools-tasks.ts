/**
 * The fixtures of the conformance `tasks-*` scenarios (tasks extension `io.modelcontextprotocol/tasks`,
 * and the 2025-11-25 tasks): ordinary handlers; whether a call runs as a task is the server's
 * business (`execution.taskSupport`), and the same `ctx.elicit` / `ctx.progress` / `ctx.signal`
 * work in both.
 */
import { ProtocolError } from "@proto/mcp-server";
import type { RequestContext, Server } from "@proto/mcp-server";

const NO_ARGS = { type: "object", properties: {} } as const;

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => (signal.removeEventListener("abort", stop), resolve()), ms);
    const stop = (): void => (clearTimeout(timer), reject(signal.reason));
    signal.addEventListener("abort", stop, { once: true });
  });
}

function confirmForm(message: string) {
  return { message, requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] } } as const;
}

async function slowCompute(seconds: number, label: string, ctx: RequestContext): Promise<string> {
  for (let i = 0; i < seconds; i++) {
    await ctx.progress(i, seconds, `computing ${label}: ${i}/${seconds} s`);
    await sleep(1000, ctx.signal);
  }
  return `Computed ${label} in ${seconds} s`;
}

/** Registers the task fixtures (the server must be created with `tasks`). */
export function registerTaskTools(server: Server): void {
  server.tool({ name: "greet", description: "Greets by name (never a task)", inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, ({ name }) => `Hello, ${name}!`);
  server.tool(
    {
      name: "slow_compute",
      description: "Sleeps `seconds` seconds, then answers; cancellable",
      inputSchema: { type: "object", properties: { seconds: { type: "integer", minimum: 0, maximum: 3600 }, label: { type: "string" } }, required: ["seconds"] },
      execution: { taskSupport: "optional" },
    },
    ({ seconds, label }, ctx) => slowCompute(seconds, label ?? "result", ctx),
  );
  server.tool({ name: "failing_job", description: "Fails as a tool (isError) after about a second; only as a task", inputSchema: NO_ARGS, execution: { taskSupport: "required" } }, async (_a, ctx) => {
    await sleep(1000, ctx.signal);
    return { content: [{ type: "text", text: "The job failed: the input was invalid" }], isError: true };
  });
  server.tool({ name: "protocol_error_job", description: "Fails with a JSON-RPC error", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    await sleep(200, ctx.signal);
    throw new ProtocolError(-32603, "The job crashed: internal failure"); // a deliberate protocol error: the task fails
  });
  server.tool(
    {
      name: "confirm_delete",
      description: "Asks the user to confirm deleting a file",
      inputSchema: { type: "object", properties: { filename: { type: "string" } }, required: ["filename"] },
      execution: { taskSupport: "optional" },
    },
    async ({ filename }, ctx) => {
      const answer = await ctx.elicit(confirmForm(`Delete ${filename}?`));
      return answer.action === "accept" && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
    },
  );
  server.tool({ name: "multi_input", description: "Asks two questions at once", inputSchema: NO_ARGS, execution: { taskSupport: "optional" } }, async (_a, ctx) => {
    const form = { requestedSchema: { type: "object", properties: { name: { type: "string" }, confirm: { type: "boolean" } } } } as const;
    const [a, b] = await Promise.all([ctx.elicit({ ...form, message: "First name?" }), ctx.elicit({ ...form, message: "Second name?" })]);
    return `Got ${a.action === "accept" ? String(a.content?.name) : a.action} and ${b.action === "accept" ? String(b.content?.name) : b.action}`;
  });
  server.tool(
    {
      name: "test_tool_with_task",
      description: "Asks the user's name first, then continues as a task",
      inputSchema: NO_ARGS,
      execution: { taskSupport: "required" },
      taskStart: "handler",
    },
    async (_a, ctx) => {
      const r = await ctx.elicit({ message: "What is your name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, { inputKey: "user_name" });
      const name = r.action === "accept" ? String(r.content?.name) : "stranger";
      await ctx.startTask();
      await sleep(300, ctx.signal);
      return `Hello, ${name}! (finished as task ${ctx.taskId ?? "-"})`;
    },
  );
}
