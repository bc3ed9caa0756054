/**
 * The built everything example driven by the official SDK client (pinned in test/package.json):
 * over stdio (`server.js --stdio` as a child process) and over Streamable HTTP (`server.js --port 0`),
 * checking fixtures the conformance suite relies on, plus what it does not check: the raw
 * 2020-12 input schema, SSE resumption after the server closes a call's stream, resource update
 * notifications, and the DNS-rebinding refusal. Then @proto/mcp-client over our Streamable
 * HTTP client transport against the same server, and the command lines' misuse answers.
 */
import { spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { createClient } from "@proto/mcp-client";
import { createStreamableHttpClientTransport, type HttpClientEvent } from "@proto/transport-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEverythingServer, type RunningServer } from "./conformance/cli";
import { assertPrerequisites, EVERYTHING } from "./conformance/paths";

assertPrerequisites();

const JSON_SCHEMA_2020_12_INPUT = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

const CONFORMANCE_TOOLS = [
  "test_simple_text",
  "test_image_content",
  "test_audio_content",
  "test_embedded_resource",
  "test_multiple_content_types",
  "json_schema_2020_12_tool",
  "test_tool_with_logging",
  "test_tool_with_progress",
  "test_error_handling",
  "test_reconnection",
  "test_sampling",
  "test_elicitation",
  "test_elicitation_sep1034_defaults",
  "test_elicitation_sep1330_enums",
];

function sdkClient(): Client {
  const client = new Client({ name: "sdk-e2e", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: { form: {} } } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
    role: "assistant",
    content: { type: "text", text: `echo: ${JSON.stringify(request.params.messages[0]?.content)}` },
    model: "sdk-test-model",
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Jane", age: 41, score: 1.5, status: "pending", verified: false } }));
  return client;
}

function textOf(result: unknown): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[];
  return content.map((c) => c.text ?? `[${c.type}]`).join("|");
}

/** The text of the first contents item of a `resources/read` result. */
function firstText(result: { contents: readonly unknown[] }): string | undefined {
  const first = result.contents[0] as { text?: unknown } | undefined;
  return typeof first?.text === "string" ? first.text : undefined;
}

/** The fixtures both transports must serve identically. */
function sharedFixtures(connect: () => Promise<Client>): void {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists every tool, with the 2020-12 input schema exactly as written", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(CONFORMANCE_TOOLS));
    expect(tools.find((t) => t.name === "json_schema_2020_12_tool")?.inputSchema).toEqual(JSON_SCHEMA_2020_12_INPUT);
  });

  it("calls content tools and reports tool errors as isError results", async () => {
    expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
    const mixed = await client.callTool({ name: "test_multiple_content_types", arguments: {} });
    expect((mixed.content as { type: string }[]).map((c) => c.type)).toEqual(["text", "image", "resource"]);
    const failed = await client.callTool({ name: "test_error_handling", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe("This tool intentionally returns an error for testing");
    const refused = await client.callTool({ name: "json_schema_2020_12_tool", arguments: { name: "x", extra: 1 } }).catch((e: unknown) => e);
    expect(refused instanceof Error ? refused.message : JSON.stringify(refused)).toMatch(/extra|additional/i);
  });

  it("reports progress 0, 50, 100 and asks the client to sample and to fill a form", async () => {
    const progress: number[] = [];
    await client.callTool({ name: "test_tool_with_progress", arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
    // The server sends 0, 50, 100 before the result. The SDK dispatches notifications a microtask
    // late, so when the last one shares a chunk with the result (stdio) it may miss it.
    expect([0, 50, 100].slice(0, progress.length)).toEqual(progress);
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(textOf(await client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }))).toBe('LLM response: echo: {"type":"text","text":"hi"}');
    expect(textOf(await client.callTool({ name: "test_elicitation_sep1034_defaults", arguments: {} }))).toBe(
      'Elicitation completed: action=accept, content={"name":"Jane","age":41,"score":1.5,"status":"pending","verified":false}',
    );
  });

  it("reads resources, renders prompts and completes arguments", async () => {
    const binary = await client.readResource({ uri: "test://static-binary" });
    expect(binary.contents[0]).toMatchObject({ uri: "test://static-binary", mimeType: "image/png", blob: expect.stringMatching(/^iVBOR/) });
    const templated = await client.readResource({ uri: "test://template/abc/data" });
    expect(JSON.parse(String(firstText(templated)))).toEqual({ id: "abc", templateTest: true, data: "Data for ID: abc" });
    const prompt = await client.getPrompt({ name: "test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
    const done = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "par" } });
    expect(done.completion.values).toEqual(["paris", "park", "party"]);
  });
}

describe("everything example over stdio, official SDK client", () => {
  sharedFixtures(async () => {
    const client = sdkClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING.server, "--stdio"], stderr: "pipe" }));
    return client;
  });
});

// Cloudflare Workers and strict CSPs refuse `new Function` as this flag does: ajv cannot compile
// there, and the server validates with the interpreting validator instead (jsonSchemaValidator "auto").
const NO_CODEGEN = "--disallow-code-generation-from-strings";

describe(`everything example over stdio under ${NO_CODEGEN}, official SDK client`, () => {
  sharedFixtures(async () => {
    const client = sdkClient();
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [NO_CODEGEN, EVERYTHING.server, "--stdio"], stderr: "pipe" }));
    return client;
  });
});

describe(`everything example over Streamable HTTP under ${NO_CODEGEN}, official SDK client`, () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEverythingServer([NO_CODEGEN]);
  });
  afterAll(async () => {
    await server?.stop();
  });
  sharedFixtures(async () => {
    const client = sdkClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return client;
  });
});

describe("everything example over Streamable HTTP, official SDK client", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEverythingServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  sharedFixtures(async () => {
    const client = sdkClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    return client;
  });

  it("closes test_reconnection's stream mid-call; the client resumes with Last-Event-ID and gets the result", async () => {
    const client = sdkClient();
    const resumedFrom: string[] = [];
    const watching: typeof fetch = (input, init) => {
      const lastEventId = new Headers(init?.headers).get("last-event-id");
      if ((init?.method ?? "GET") === "GET" && lastEventId !== null) resumedFrom.push(lastEventId);
      return fetch(input, init);
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: watching }));
    try {
      const result = await client.callTool({ name: "test_reconnection", arguments: {} });
      expect(textOf(result)).toMatch(/^Reconnection test completed successfully/);
      expect(resumedFrom.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it("tells subscribers when the watched resource changes", async () => {
    const client = sdkClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const updated = new Promise<string>((resolve) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => resolve(n.params.uri)));
      await client.subscribeResource({ uri: "test://watched-resource" });
      expect(await updated).toBe("test://watched-resource");
      const read = await client.readResource({ uri: "test://watched-resource" });
      expect(firstText(read)).toMatch(/^Watched resource content \(revision \d+\)$/);
    } finally {
      await client.close();
    }
  });

  it("answers 413 to a body over 4 MiB and keeps serving", async () => {
    const big = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "x".repeat(5 * 1024 * 1024) });
    expect(big.status).toBe(413);
    await big.body?.cancel();
    const client = sdkClient();
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      expect(textOf(await client.callTool({ name: "test_simple_text", arguments: {} }))).toBe("This is a simple text response for testing.");
    } finally {
      await client.close();
    }
  });

  it("refuses a foreign Host or Origin (DNS rebinding) and accepts loopback ones", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    const post = (origin: string): Promise<Response> =>
      fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin }, body: JSON.stringify(init) });
    expect((await post("http://evil.example.com")).status).toBe(403);
    const ok = await post("http://localhost");
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });
});

describe("everything example command lines", () => {
  function run(file: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [file, ...args], { env: { ...process.env, MCP_CONFORMANCE_SCENARIO: "", ...env }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
      child.once("close", (code) => resolve({ code, stderr }));
    });
  }

  it("refuses a bad server option with the usage and exit code 2", async () => {
    expect(await run(EVERYTHING.server, [])).toMatchObject({ code: 2, stderr: expect.stringMatching(/choose --stdio, --port <n> or --demo[\s\S]*usage:/) });
    expect(await run(EVERYTHING.server, ["--port", "http"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--port must be a number from 0 to 65535") });
  });

  it("refuses a conformance client run without a URL, a scenario, or with an unknown one", async () => {
    expect(await run(EVERYTHING.client, [], { MCP_CONFORMANCE_SCENARIO: "initialize" })).toMatchObject({ code: 2, stderr: expect.stringContaining("the server URL") });
    expect(await run(EVERYTHING.client, ["http://127.0.0.1:1/mcp"])).toMatchObject({ code: 2, stderr: expect.stringContaining("MCP_CONFORMANCE_SCENARIO is not set") });
    expect(await run(EVERYTHING.client, ["http://127.0.0.1:1/mcp"], { MCP_CONFORMANCE_SCENARIO: "nope" })).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown scenario nope") });
  });

  it("fails a scenario whose server cannot be reached with exit code 1", async () => {
    const { code, stderr } = await run(EVERYTHING.client, ["http://127.0.0.1:1/mcp"], { MCP_CONFORMANCE_SCENARIO: "initialize" });
    expect(code).toBe(1);
    expect(stderr).toContain("conformance client failed");
  });
});

describe("everything example over Streamable HTTP, @proto/mcp-client", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startEverythingServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("resumes test_reconnection's closed stream after the server's retry, and serves sampling, forms, logs and progress", async () => {
    const events: HttpClientEvent[] = [];
    const client = createClient({
      protocol: "2025-11-25",
      info: { name: "proto-e2e", version: "1.0.0" },
      sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "m" }) },
      elicitation: { form: () => ({ action: "accept", content: {} }), applyDefaults: true },
    });
    await client.connect(createStreamableHttpClientTransport(server.url, { onEvent: (event) => events.push(event) }));
    try {
      expect(textOf(await client.callTool("test_reconnection"))).toMatch(/^Reconnection test completed successfully/);
      expect(events).toContainEqual(expect.objectContaining({ type: "reconnecting", stream: "request", delayMs: 1000 }));
      expect(textOf(await client.callTool("test_sampling", { prompt: "p" }))).toBe("LLM response: sampled");
      expect(textOf(await client.callTool("test_elicitation_sep1034_defaults"))).toBe(
        'Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}',
      );
      const logs: unknown[] = [];
      client.on("log", (entry) => logs.push(entry.data));
      await client.setLoggingLevel("debug");
      await client.callTool("test_tool_with_logging");
      expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
      const progress: number[] = [];
      await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => progress.push(p.progress) });
      expect(progress).toEqual([0, 50, 100]);
    } finally {
      await client.close();
    }
  });
});
