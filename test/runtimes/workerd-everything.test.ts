/**
 * Issue 18, "Show": the everything example's tool calls inside workerd, where code generation is
 * refused (ajv cannot compile; the interpreting validator takes over). The example's server
 * definition runs as a stateless Worker (fixtures/everything-worker.ts); our client calls it over
 * HTTP on the 2026-07-28 wire it negotiates by itself, so sampling and forms travel as
 * multi-round input. The same calls as the everything e2e tests (test/e2e-everything.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@proto/mcp-client";
import { createHttpClientTransport } from "@proto/transport-http";
import { TEST_DIR } from "./runtimes";
import { runWorker } from "./workerd";
import type { RunningWorker } from "./workerd";

const textOf = (result: { content: readonly unknown[] }): string => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join("|");

describe("workerd: the everything example's tool calls, validated without code generation", () => {
  let worker: RunningWorker;
  let client: Client;
  beforeAll(async () => {
    worker = await runWorker(`${TEST_DIR}runtimes/fixtures/everything-worker.ts`);
    client = createClient({
      info: { name: "workerd-everything", version: "1.0.0" },
      sampling: { createMessage: (request) => ({ role: "assistant", content: { type: "text", text: `echo: ${JSON.stringify(request.messages[0]?.content)}` }, model: "m" }) },
      elicitation: { form: () => ({ action: "accept", content: { name: "Jane", age: 41, score: 1.5, status: "pending", verified: false } }) },
    });
    await client.connect(createHttpClientTransport(worker.url));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await worker?.stop();
  });

  it("negotiates 2026-07-28 with the Worker and lists every conformance tool", async () => {
    expect(client.server?.protocolVersion).toBe("2026-07-28");
    const { tools } = await client.listTools();
    for (const name of ["test_simple_text", "test_multiple_content_types", "json_schema_2020_12_tool", "test_error_handling", "test_tool_with_progress", "test_sampling", "test_elicitation_sep1034_defaults"]) {
      expect(tools.map((t) => t.name)).toContain(name);
    }
  });

  it("calls content tools, reports tool errors as isError, and refuses arguments the 2020-12 schema refuses", async () => {
    expect(textOf(await client.callTool("test_simple_text"))).toBe("This is a simple text response for testing.");
    expect(((await client.callTool("test_multiple_content_types")).content as readonly { type: string }[]).map((c) => c.type)).toEqual(["text", "image", "resource"]);
    const failed = await client.callTool("test_error_handling");
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("This tool intentionally returns an error for testing");
    const refused = await client.callTool("json_schema_2020_12_tool", { name: "x", extra: 1 }).then(
      (result) => JSON.stringify(result),
      (error: unknown) => String(error),
    );
    expect(refused).toMatch(/extra|additional/i);
    const accepted = await client.callTool("json_schema_2020_12_tool", { name: "x", contactMethod: "email", email: "x@example.com" });
    expect(accepted.isError).not.toBe(true);
  });

  it("reports progress, and asks the client to sample and to fill a form (multi-round input)", async () => {
    const progress: number[] = [];
    await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => progress.push(p.progress) });
    expect(progress).toEqual([0, 50, 100]);
    expect(textOf(await client.callTool("test_sampling", { prompt: "hi" }))).toBe('LLM response: echo: {"type":"text","text":"hi"}');
    expect(textOf(await client.callTool("test_elicitation_sep1034_defaults"))).toBe(
      'Elicitation completed: action=accept, content={"name":"Jane","age":41,"score":1.5,"status":"pending","verified":false}',
    );
  });

  it("reads resources, renders prompts and completes arguments", async () => {
    const templated = await client.readResource("test://template/abc/data");
    expect(JSON.parse(String((templated.contents[0] as { text?: string }).text))).toEqual({ id: "abc", templateTest: true, data: "Data for ID: abc" });
    const prompt = await client.getPrompt("test_prompt_with_arguments", { arg1: "a", arg2: "b" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
  });
});
