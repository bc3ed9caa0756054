/**
 * The server of the end-to-end scenario (test/e2e): one @proto/mcp-server definition with a
 * tool that reports progress and logs, a tool that waits until it is cancelled, tools that ask
 * the client (sampling, elicitation), a resource, a resource template and a prompt. The same
 * definition runs in-process (memory, HTTP, WebSocket) and in a child process (stdio fixture).
 *
 * Server-side facts a remote client cannot see (how many calls are waiting, how many were
 * cancelled) are exposed by the `status` tool, so a test over any transport can wait for them
 * by asking instead of sleeping.
 */
import { createServer, type Server } from "@proto/mcp-server";

/** What the scenario server has seen, readable in-process and through the `status` tool. */
export interface ScenarioStatus {
  /** Calls of `wait` running now. */
  readonly waiting: number;
  /** Calls of `wait` whose `ctx.signal` fired. */
  readonly cancelled: number;
  /** Why the last cancelled `wait` was aborted, as text. */
  readonly lastReason: string | undefined;
}

/** The scenario server and a view of its status. */
export interface ScenarioServer {
  readonly server: Server;
  status(): ScenarioStatus;
}

/** The resource, template and prompt the scenario reads. */
export const SCENARIO = {
  resourceUri: "scenario://greeting",
  resourceText: "hello from the scenario",
  itemTemplate: "scenario://items/{id}",
  prompt: "greet",
} as const;

/** Builds the scenario server (not connected). `name` tells the servers of a test apart. */
export function createScenarioServer(name = "scenario"): ScenarioServer {
  const server = createServer({ name, version: "1.0.0", instructions: "The end-to-end scenario." });
  let waiting = 0;
  let cancelled = 0;
  let lastReason: string | undefined;

  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } }, ({ text }) => text);
  server.tool(
    {
      name: "work",
      description: "Reports `steps` progress notifications and one log message per step, then returns the count.",
      inputSchema: { type: "object", properties: { steps: { type: "integer", minimum: 1, maximum: 50 } }, required: ["steps"] },
      outputSchema: { type: "object", properties: { done: { type: "integer" } }, required: ["done"] },
    },
    async ({ steps }, ctx) => {
      for (let i = 1; i <= steps; i++) {
        await ctx.progress(i, steps, `step ${i}`);
        await ctx.log("info", { step: i }, "work");
      }
      return { done: steps };
    },
  );
  server.tool({ name: "wait", description: "Waits until the call is cancelled.", inputSchema: { type: "object" } }, (_args, ctx) => {
    waiting++;
    return new Promise<string>((resolve) => {
      ctx.signal.addEventListener(
        "abort",
        () => {
          waiting--;
          cancelled++;
          lastReason = String(ctx.signal.reason);
          resolve("cancelled");
        },
        { once: true },
      );
    });
  });
  server.tool(
    { name: "big", description: "Returns a text of `size` characters.", inputSchema: { type: "object", properties: { size: { type: "integer", minimum: 0, maximum: 4_000_000 } }, required: ["size"] } },
    ({ size }) => "0123456789abcdef".repeat(Math.ceil(size / 16)).slice(0, size),
  );
  server.tool({ name: "status", inputSchema: { type: "object" } }, () => ({ waiting, cancelled, lastReason: lastReason ?? null }));
  server.tool({ name: "ask-model", inputSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] } }, async ({ question }, ctx) => {
    const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 20 }, { signal: ctx.signal });
    const first = Array.isArray(answer.content) ? answer.content[0] : answer.content;
    const text = first?.type === "text" ? first.text : String(first?.type);
    return `${answer.model} says ${text}`;
  });
  server.tool({ name: "ask-user", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const,
    });
    return answer.action === "accept" ? `hi ${answer.content.name}` : answer.action;
  });

  server.resource({ uri: SCENARIO.resourceUri, name: "greeting", mimeType: "text/plain" }, () => SCENARIO.resourceText);
  server.resourceTemplate({ uriTemplate: SCENARIO.itemTemplate, name: "item", mimeType: "application/json" }, (uri, vars) =>
    JSON.stringify({ uri, id: vars.id ?? null }),
  );
  server.prompt(
    { name: SCENARIO.prompt, description: "Greets someone.", arguments: [{ name: "who", required: true }] as const, complete: { who: ["world", "wally"] } },
    ({ who }) => `Hello, ${who}!`,
  );

  return { server, status: () => ({ waiting, cancelled, lastReason }) };
}
