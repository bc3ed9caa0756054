import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestHandler } from "@proto/jsonrpc";
import type { Tool } from "@proto/mcp-protocol";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { discover } from "./fixtures/modern-discover";
import { createScriptedServer } from "./fixtures/scripted-server";
import { toAnthropicTools, toOpenAiTools } from "./llm-tools";

/**
 * A `$ref` in a server's schema is never dereferenced over the network (2026-07-28 server/tools,
 * JSON Schema): not when tool output is validated, not when LLM tool schemas are built. `fetch`
 * is watched: any request for the referenced document fails the test.
 */
const REMOTE = "https://schemas.example.com/report.json";
const clients: Client[] = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const tool: Tool = {
  name: "report",
  inputSchema: { type: "object", properties: { spec: { $ref: REMOTE }, local: { $ref: "#/$defs/n" } }, $defs: { n: { type: "number" } } },
  outputSchema: { type: "object", properties: { report: { $ref: REMOTE } }, required: ["report"] },
};

describe("remote $ref in server schemas", () => {
  it("validating tool output never fetches the referenced schema: the call fails with a clear error instead", async () => {
    const fetch = vi.fn(() => Promise.reject(new Error("no network in this test")));
    vi.stubGlobal("fetch", fetch);
    const call: RequestHandler = () => ({ resultType: "complete", content: [], structuredContent: { report: { title: "x" } } });
    const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "public", tools: [tool] }), "tools/call": call } });
    const client = createClient({ info: { name: "t", version: "1" } });
    clients.push(client);
    await client.connect(server.transport);
    const error = await client.callTool("report", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).code).toBe(ClientFaultCode.InvalidOutputSchema);
    expect(String((error as Error).message)).toMatch(/cannot be compiled|\$ref|resolve/i);
    expect((await client.callTool("report", {}, { validateOutput: false })).structuredContent).toEqual({ report: { title: "x" } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("LLM tool schemas keep the $ref as written and fetch nothing", () => {
    const fetch = vi.fn(() => Promise.reject(new Error("no network in this test")));
    vi.stubGlobal("fetch", fetch);
    expect(toOpenAiTools([tool]).tools[0]?.function.parameters).toMatchObject({ properties: { spec: { $ref: REMOTE }, local: { $ref: "#/$defs/n" } } });
    expect(toAnthropicTools([tool]).tools[0]?.input_schema).toMatchObject({ properties: { spec: { $ref: REMOTE } } });
    expect(fetch).not.toHaveBeenCalled();
  });
});
