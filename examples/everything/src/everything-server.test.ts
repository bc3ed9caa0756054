import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient, type Client } from "@proto/mcp-client";
import type { ElicitResult } from "@proto/mcp-protocol";
import type { RequestContext } from "@proto/mcp-server";
import { afterEach, describe, expect, it } from "vitest";
import { createEverythingServer, type EverythingOptions } from "./everything-server";
import { JSON_SCHEMA_2020_12_INPUT } from "./fixtures";

/** The 2026-07-28 conformance fixtures (tools-stateless.ts). */
const STATELESS_FIXTURES = [
  "test_custom_headers",
  "test_input_required_result_capabilities",
  "test_input_required_result_elicitation",
  "test_input_required_result_list_roots",
  "test_input_required_result_multi_round",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_request_state",
  "test_input_required_result_sampling",
  "test_input_required_result_tampered_state",
  "test_logging_tool",
  "test_missing_capability",
  "test_streaming_elicitation",
  "test_trigger_prompt_change",
  "test_trigger_tool_change",
];

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function connected(options: EverythingOptions = {}): Promise<{ client: Client; logs: unknown[] }> {
  const everything = createEverythingServer({ watchedIntervalMs: 0, ...options });
  const [serverEnd, clientEnd] = createMemoryTransportPair();
  await everything.server.connect(serverEnd);
  const logs: unknown[] = [];
  const client = createClient({
    info: { name: "unit", version: "1.0.0" },
    sampling: { createMessage: (params) => ({ role: "assistant", content: { type: "text", text: `saw ${params.messages.length} message(s)` }, model: "m" }) },
    elicitation: {
      form: (params): ElicitResult => ({ action: "accept", content: params.requestedSchema.required?.includes("response") === true ? { response: "yes" } : {} }),
      applyDefaults: true,
    },
  });
  client.on("log", (entry) => logs.push(entry.data));
  await client.connect(clientEnd);
  open.push(everything, client);
  return { client, logs };
}

function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((c) => c.text ?? `[${c.type}]`).join("|");
}

const TASK_FIXTURES = ["greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input", "test_tool_with_task"];

describe("the everything server", () => {
  it("lists the conformance fixtures and keeps the 2020-12 schema as written", async () => {
    const { client } = await connected();
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "json_schema_2020_12_tool",
      "show_dashboard",
      "test_audio_content",
      "test_elicitation",
      "test_elicitation_sep1034_defaults",
      "test_elicitation_sep1330_enums",
      "test_embedded_resource",
      "test_error_handling",
      "test_image_content",
      "test_multiple_content_types",
      "test_reconnection",
      "test_sampling",
      "test_simple_text",
      "test_tool_with_logging",
      "test_tool_with_progress",
      ...STATELESS_FIXTURES,
      ...TASK_FIXTURES,
    ].sort());
    expect(tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema).toEqual(JSON_SCHEMA_2020_12_INPUT);
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["test://static-text", "test://static-binary", "test://watched-resource"]);
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["test://template/{id}/data"]);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual([
      "test_input_required_result_prompt",
      "test_simple_prompt",
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
    ]);
    expect(client.server?.capabilities).toMatchObject({ logging: {}, completions: {}, resources: { subscribe: true } });
  });

  it("logs three messages during test_tool_with_logging and reports progress 0, 50, 100", async () => {
    const { client, logs } = await connected();
    await client.setLoggingLevel("debug");
    expect(text(await client.callTool("test_tool_with_logging"))).toBe("Tool with logging executed successfully");
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    const progress: number[] = [];
    await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
  });

  it("asks the client to sample and to fill forms, and reports what it answered", async () => {
    const { client } = await connected();
    expect(text(await client.callTool("test_sampling", { prompt: "hello" }))).toBe("LLM response: saw 1 message(s)");
    expect(text(await client.callTool("test_elicitation", { message: "ok?" }))).toBe('User response: action=accept, content={"response":"yes"}');
    expect(text(await client.callTool("test_elicitation_sep1034_defaults"))).toBe(
      'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
    );
  });

  it("says why when the client cannot sample", async () => {
    const everything = createEverythingServer({ watchedIntervalMs: 0 });
    const [serverEnd, clientEnd] = createMemoryTransportPair();
    await everything.server.connect(serverEnd);
    const client = createClient({ info: { name: "plain", version: "1.0.0" } });
    await client.connect(clientEnd);
    open.push(everything, client);
    expect(text(await client.callTool("test_sampling", { prompt: "x" }))).toMatch(/^Sampling not supported or error: /);
  });

  it("closes the stream of test_reconnection through the hook, and answers without one", async () => {
    const asked: RequestContext[] = [];
    const { client } = await connected({ closeStream: async (ctx) => (asked.push(ctx), true) });
    expect(text(await client.callTool("test_reconnection"))).toMatch(/^Reconnection test completed successfully/);
    expect(asked.map((ctx) => ctx.method)).toEqual(["tools/call"]);
    const plain = await connected();
    expect(text(await plain.client.callTool("test_reconnection"))).toMatch(/^Reconnection test completed successfully/);
  });

  it("reads resources and templates, renders prompts and completes their arguments", async () => {
    const { client } = await connected();
    expect((await client.readResource("test://static-text")).contents).toEqual([{ uri: "test://static-text", mimeType: "text/plain", text: "This is the content of the static text resource." }]);
    expect((await client.readResource("test://template/7/data")).contents[0]).toMatchObject({ mimeType: "application/json", text: '{"id":"7","templateTest":true,"data":"Data for ID: 7"}' });
    const prompt = await client.getPrompt("test_prompt_with_embedded_resource", { resourceUri: "test://x" });
    expect(prompt.messages[0]?.content).toEqual({ type: "resource", resource: { uri: "test://x", mimeType: "text/plain", text: "Embedded resource content for testing." } });
    expect((await client.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "12" } })).completion.values).toEqual(["123"]);
  });

  it("tells subscribers of the watched resource when it changes", async () => {
    const { client } = await connected({ watchedIntervalMs: 20 });
    const updated = new Promise<string>((resolve) => client.on("resourceUpdated", ({ uri }) => resolve(uri)));
    await client.subscribe("test://watched-resource");
    expect(await updated).toBe("test://watched-resource");
  });
});
