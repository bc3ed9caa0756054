import { McpErrorCode } from "@proto/mcp-protocol";
import { CreateMessageRequestSchema, GetPromptResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";
import { connectRawClient } from "./test-support";

function samplingServer() {
  const s = createServer({ name: "sampler", version: "1" });
  s.tool({ name: "ask", inputSchema: { type: "object", properties: { tools: { type: "boolean" } } } }, async (args, ctx) => {
    const result = await ctx.sample({
      messages: [{ role: "user", content: { type: "text", text: "What is 6 x 7?" } }],
      maxTokens: 20,
      ...(args.tools === true ? { tools: [{ name: "calc", inputSchema: { type: "object" } }] } : {}),
    });
    return `${result.model}: ${(result.content as { text: string }).text}`;
  });
  s.prompt({ name: "summary" }, async (_args, ctx) => {
    const r = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
    return (r.content as { text: string }).text;
  });
  return s;
}

describe("sampling", () => {
  it("round trip with the official SDK client", async () => {
    const { client } = await connectSdkClient(samplingServer(), { capabilities: { sampling: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      asked.push(request.params);
      return { role: "assistant", content: { type: "text", text: "42" }, model: "test-model", stopReason: "endTurn" };
    });
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "test-model: 42" }]);
    expect(asked).toEqual([{ messages: [{ role: "user", content: { type: "text", text: "What is 6 x 7?" } }], maxTokens: 20 }]);
  });

  it("refuses with -32021 when the client did not declare sampling, or sampling.tools for tools (a tool error in a 2025 session)", async () => {
    const { client } = await connectSdkClient(samplingServer());
    expect(await client.callTool({ name: "ask", arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/"sampling"/) }],
      _meta: { "dev.proto/tool-error": { error: { code: McpErrorCode.MissingRequiredClientCapability } } },
    });
    await expect(client.request({ method: "prompts/get", params: { name: "summary" } }, GetPromptResultSchema)).rejects.toMatchObject({
      code: McpErrorCode.MissingRequiredClientCapability,
    });
    const server = samplingServer();
    const withSampling = await connectSdkClient(server, { capabilities: { sampling: {} } });
    const s2Sample = (session: typeof withSampling.session, message: Parameters<typeof server.sample>[1]["messages"][number]) =>
      server.sample(session, { messages: [message], maxTokens: 5 });
    expect(await withSampling.client.callTool({ name: "ask", arguments: { tools: true } })).toMatchObject({
      isError: true,
      _meta: { "dev.proto/tool-error": { error: { code: McpErrorCode.MissingRequiredClientCapability, data: { requiredCapabilities: { sampling: { tools: {} } } } } } },
    });
    const toolContent = { role: "user" as const, content: [{ type: "tool_result" as const, toolUseId: "1", content: [] }] };
    await expect(s2Sample(withSampling.session, toolContent)).rejects.toMatchObject({ code: McpErrorCode.MissingRequiredClientCapability });
  });

  it("reports a malformed sampling result as a tool error, never a crash", async () => {
    const raw = await connectRawClient(samplingServer(), { sampling: {} });
    const answer = raw.call(1, "tools/call", { name: "ask", arguments: {} });
    const request = await raw.next((m) => "method" in m && m.method === "sampling/createMessage");
    await raw.send({ jsonrpc: "2.0", id: (request as { id: number }).id, result: { role: "robot", content: {}, model: 1 } });
    expect(await answer).toMatchObject({ result: { isError: true } });
    expect(JSON.stringify(await answer)).toMatch(/malformed result/);
  });

  it("rejects bad params before asking the client", async () => {
    const s = createServer({ name: "s", version: "1" });
    s.tool({ name: "bad", inputSchema: { type: "object" } }, async (_a, ctx) => {
      await ctx.sample({ messages: [], maxTokens: 0 });
      return "no";
    });
    const { client } = await connectSdkClient(s, { capabilities: { sampling: {} } });
    const result = await client.callTool({ name: "bad", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/maxTokens must be a positive integer/);
  });

  it("samples from a session outside any request", async () => {
    const s = samplingServer();
    const { client, session } = await connectSdkClient(s, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "bg" }, model: "m" }));
    const result = await s.sample(session, { messages: [{ role: "user", content: { type: "text", text: "x" } }], maxTokens: 3 });
    expect(result.content).toEqual({ type: "text", text: "bg" });
  });
});
