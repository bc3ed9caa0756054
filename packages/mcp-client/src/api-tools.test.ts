import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError, type RequestHandler } from "@proto/jsonrpc";
import type { Tool } from "@proto/mcp-protocol";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const weather: Tool = {
  name: "weather",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { temp: { type: "number" } }, required: ["temp"] },
};

async function setup(handlers: { [method: string]: RequestHandler }, options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ capabilities: { tools: { listChanged: true } }, handlers: { "tools/list": () => ({ tools: [weather] }), ...handlers } });
  const client = createClient({ info: { name: "t", version: "1" }, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof McpClientError ? error.code : error === undefined ? undefined : String(error);
}

describe("callTool output validation", () => {
  it("rejects structuredContent that violates the outputSchema, naming the problem", async () => {
    const { client } = await setup({ "tools/call": () => ({ content: [], structuredContent: { temp: "warm" } }) });
    const error = await client.callTool("weather").catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.OutputSchemaViolation);
    expect((error as Error).message).toMatch(/weather.*\/temp must be number/);
  });

  it("rejects a result without structuredContent when the tool declares an outputSchema", async () => {
    const { client } = await setup({ "tools/call": () => ({ content: [{ type: "text", text: "20" }] }) });
    expect(await codeOf(client.callTool("weather"))).toBe(ClientFaultCode.OutputSchemaViolation);
  });

  it("returns valid results, error results unchecked, and anything when validation is off", async () => {
    let reply: unknown = { content: [], structuredContent: { temp: 20 } };
    const { client } = await setup({ "tools/call": () => reply });
    expect((await client.callTool("weather")).structuredContent).toEqual({ temp: 20 });
    reply = { content: [{ type: "text", text: "no data" }], isError: true };
    expect((await client.callTool("weather")).isError).toBe(true);
    reply = { content: [], structuredContent: { temp: "warm" } };
    expect((await client.callTool("weather", {}, { validateOutput: false })).structuredContent).toEqual({ temp: "warm" });
  });

  it("lists tools once for many calls, and again after list_changed", async () => {
    const { client, server } = await setup({ "tools/call": () => ({ content: [], structuredContent: { temp: 1 } }) });
    await Promise.all([client.callTool("weather"), client.callTool("weather"), client.callTool("weather")]);
    const lists = () => server.received.filter((r) => r.method === "tools/list").length;
    expect(lists()).toBe(1);
    const changed = new Promise<void>((resolve) => client.on("toolsChanged", () => resolve()));
    await server.peer.notify("notifications/tools/list_changed");
    await changed;
    await client.callTool("weather");
    expect(lists()).toBe(2);
  });

  it("refuses an outputSchema that cannot be compiled with INVALID_OUTPUT_SCHEMA", async () => {
    const broken: Tool = { name: "broken", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { a: { type: "nonsense" } } } };
    const { client } = await setup({ "tools/list": () => ({ tools: [broken] }), "tools/call": () => ({ content: [], structuredContent: { a: 1 } }) });
    expect(await codeOf(client.callTool("broken"))).toBe(ClientFaultCode.InvalidOutputSchema);
  });

  it("still returns the result, unchecked, when the tool list cannot be fetched", async () => {
    const warnings: string[] = [];
    const { client } = await setup(
      { "tools/list": () => { throw new JsonRpcError(-32603, "list broke"); }, "tools/call": () => ({ content: [], structuredContent: { temp: "x" } }) },
      { logger: { warn: (m) => warnings.push(m), error() {} } },
    );
    expect((await client.callTool("weather")).structuredContent).toEqual({ temp: "x" });
    expect(warnings.join()).toMatch(/Could not list tools/);
  });
});

describe("hostile results", () => {
  it("refuses malformed list and call results with INVALID_RESULT", async () => {
    const { client } = await setup({ "tools/list": () => ({ tools: "nope" }), "tools/call": () => ({ content: 3 }) });
    expect(await codeOf(client.listTools())).toBe(ClientFaultCode.InvalidResult);
    expect(await codeOf(client.callTool("x", {}, { validateOutput: false }))).toBe(ClientFaultCode.InvalidResult);
  });

  it("stops a cursor loop instead of paginating forever", async () => {
    const { client } = await setup({ "tools/list": () => ({ tools: [weather], nextCursor: "same" }) });
    const error = await client.listAllTools().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.InvalidResult);
    expect((error as Error).message).toMatch(/came back twice/);
  });

  it("stops after maxPages pages", async () => {
    let n = 0;
    const { client } = await setup({ "tools/list": () => ({ tools: [weather], nextCursor: String(++n) }) }, { maxPages: 5 });
    expect(await codeOf(client.listAllTools())).toBe(ClientFaultCode.InvalidResult);
    expect(n).toBe(5);
  });

  it("passes a server's JSON-RPC error through as JsonRpcError", async () => {
    const { client } = await setup({ "tools/call": () => { throw new JsonRpcError(-32602, "Unknown tool: nope"); } });
    const error = await client.callTool("nope", {}, { validateOutput: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
  });

  it("refuses bad arguments locally with a TypeError", async () => {
    const { client } = await setup({});
    await expect(client.callTool("")).rejects.toThrow(TypeError);
    await expect(client.callTool("x", [] as unknown as Record<string, unknown>)).rejects.toThrow(/named arguments/);
  });
});
