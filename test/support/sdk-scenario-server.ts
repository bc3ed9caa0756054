/**
 * The end-to-end scenario served by the official SDK's `McpServer` (pinned 1.32.2), for interop
 * tests of our client against it: the same tools, resource, template and prompt as
 * `scenario-server.ts`. An SDK `McpServer` serves one transport, so `create()` builds one per
 * session; they share one status (waiting and cancelled calls of `wait`).
 */
import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CreateMessageResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { SCENARIO } from "./scenario-server";

/** Builds SDK servers that share one status. */
export interface SdkScenario {
  /** A new, unconnected `McpServer` with the scenario. */
  create(): McpServer;
  status(): { readonly waiting: number; readonly cancelled: number };
}

/** Creates the SDK scenario factory. */
export function createSdkScenario(name = "sdk-scenario"): SdkScenario {
  let waiting = 0;
  let cancelled = 0;

  function create(): McpServer {
    const server = new McpServer({ name, version: "1.0.0" }, { capabilities: { logging: {} }, instructions: "The end-to-end scenario." });
    server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
    server.registerTool(
      "work",
      { inputSchema: { steps: z.number().int().min(1).max(50) }, outputSchema: { done: z.number().int() } },
      async ({ steps }, extra) => {
        const token = extra._meta?.progressToken;
        for (let i = 1; i <= steps; i++) {
          if (token !== undefined) await extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, progress: i, total: steps, message: `step ${i}` } });
          await extra.sendNotification({ method: "notifications/message", params: { level: "info", logger: "work", data: { step: i } } });
        }
        return { content: [{ type: "text", text: JSON.stringify({ done: steps }) }], structuredContent: { done: steps } };
      },
    );
    server.registerTool("wait", { inputSchema: {} }, (_args, extra) => {
      waiting++;
      return new Promise((resolve) => {
        extra.signal.addEventListener(
          "abort",
          () => {
            waiting--;
            cancelled++;
            resolve({ content: [{ type: "text", text: "cancelled" }] });
          },
          { once: true },
        );
      });
    });
    server.registerTool("status", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "status" }], structuredContent: { waiting, cancelled } }));
    server.registerTool("ask-model", { inputSchema: { question: z.string() } }, async ({ question }, extra) => {
      const answer = await extra.sendRequest(
        { method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: question } }], maxTokens: 20 } },
        CreateMessageResultSchema,
      );
      const first = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return { content: [{ type: "text", text: `${answer.model} says ${first?.type === "text" ? first.text : "?"}` }] };
    });
    server.registerResource("greeting", SCENARIO.resourceUri, { mimeType: "text/plain" }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: "text/plain", text: SCENARIO.resourceText }],
    }));
    server.registerResource("item", new ResourceTemplate(SCENARIO.itemTemplate, { list: undefined }), { mimeType: "application/json" }, async (uri, vars) => ({
      contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ uri: uri.href, id: vars.id ?? null }) }],
    }));
    server.registerPrompt(
      SCENARIO.prompt,
      { argsSchema: { who: completable(z.string(), (value) => ["world", "wally"].filter((w) => w.startsWith(value))) } },
      ({ who }) => ({ messages: [{ role: "user", content: { type: "text", text: `Hello, ${who}!` } }] }),
    );
    return server;
  }

  return { create, status: () => ({ waiting, cancelled }) };
}
