/**
 * `server.js --demo`: a short, self-contained tour. It starts the everything server as a child
 * process over stdio (`server.js --stdio`) with @proto/mcp-client and the stdio client
 * transport of @proto/transport-stdio, lists what the server offers, calls a few tools (one
 * reporting progress, one asking our client to sample a model, which the demo answers itself),
 * reads a resource, renders a prompt, and prints the transcript to stdout.
 */
import { createClient, type Client } from "@proto/mcp-client";
import type { CallToolResult, ContentBlock } from "@proto/mcp-protocol";
import { createStdioClientTransport } from "@proto/transport-stdio/node";

type Print = (line: string) => void;

function describe(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
    case "resource":
      return `[resource ${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}

function shown(result: CallToolResult): string {
  return `${result.isError === true ? "error: " : ""}${result.content.map(describe).join(" | ")}`;
}

async function tour(client: Client, print: Print): Promise<void> {
  const server = client.server;
  print(`connected to ${server?.info.name} ${server?.info.version} (protocol ${server?.protocolVersion})`);
  const tools = await client.listAllTools();
  print(`\n${tools.length} tools:`);
  for (const tool of tools) print(`  - ${tool.name}: ${tool.description ?? ""}`);
  const resources = await client.listAllResources();
  const templates = await client.listAllResourceTemplates();
  print(`\n${resources.length} resources, ${templates.length} template(s):`);
  for (const resource of resources) print(`  - ${resource.uri} (${resource.mimeType ?? "?"})`);
  for (const template of templates) print(`  - ${template.uriTemplate} (template)`);
  const prompts = await client.listAllPrompts();
  print(`\n${prompts.length} prompts: ${prompts.map((p) => p.name).join(", ")}`);

  print("\n> tools/call test_simple_text");
  print(`< ${shown(await client.callTool("test_simple_text"))}`);
  print("\n> tools/call test_tool_with_progress (with a progress token)");
  const progressed = await client.callTool("test_tool_with_progress", {}, {
    onProgress: ({ progress, total, message }) => print(`  progress ${progress}/${total ?? "?"}${message === undefined ? "" : `: ${message}`}`),
  });
  print(`< ${shown(progressed)}`);
  print('\n> tools/call test_sampling { prompt: "What is MCP, in five words?" }');
  print(`< ${shown(await client.callTool("test_sampling", { prompt: "What is MCP, in five words?" }))}`);
  print("\n> tools/call test_error_handling");
  print(`< ${shown(await client.callTool("test_error_handling"))}`);
  print("\n> resources/read test://template/42/data");
  const read = await client.readResource("test://template/42/data");
  print(`< ${read.contents.map((c) => ("text" in c ? c.text : `[blob ${c.mimeType ?? ""}]`)).join(" | ")}`);
  print("\n> prompts/get test_prompt_with_arguments { arg1: \"hello\", arg2: \"world\" }");
  const prompt = await client.getPrompt("test_prompt_with_arguments", { arg1: "hello", arg2: "world" });
  print(`< ${prompt.messages.map((m) => `${m.role}: ${describe(m.content)}`).join(" | ")}`);
  print('\n> completion/complete test_prompt_with_arguments arg1 "pa"');
  const completion = await client.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "pa" } });
  print(`< ${completion.completion.values.join(", ")}`);
}

/**
 * Runs the demo against `serverScript --stdio` (spawned with this Node binary) and prints the
 * transcript with `print`. Resolves once the child has been shut down; rejects on any failure.
 */
export async function runDemo(serverScript: string, print: Print = (line) => process.stdout.write(`${line}\n`)): Promise<void> {
  print(`$ node ${serverScript} --stdio   (spawned by the demo; MCP over stdin/stdout)`);
  const client = createClient({
    info: { name: "proto-everything-demo", version: "0.1.0" },
    sampling: {
      createMessage: (params) => {
        const asked = params.messages.map((m) => (Array.isArray(m.content) ? "" : "text" in m.content ? String(m.content.text) : "")).join(" ");
        print(`  [demo client] sampling/createMessage asked: "${asked}" -> answering for the model`);
        return { role: "assistant", content: { type: "text", text: "A protocol linking models to tools." }, model: "demo-model", stopReason: "endTurn" };
      },
    },
  });
  const transport = createStdioClientTransport({ command: process.execPath, args: [serverScript, "--stdio"] });
  try {
    await client.connect(transport);
    await tour(client, print);
  } finally {
    await client.close();
  }
  print("\ndone: the server process was shut down.");
}
