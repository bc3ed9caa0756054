/**
 * The official SDK v2 client (`@modelcontextprotocol/client` 2.4.0, `versionNegotiation: { mode:
 * "auto" }`) against our dual-era server over stdio and Streamable HTTP: it probes with
 * `server/discover`, settles on 2026-07-28, and drives tools, prompts, resources, multi-round
 * input (its handlers answer our `input_required` rounds) and `subscriptions/listen`.
 */
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeHttp, listenLoopback, REPO_ROOT } from "../support/e2e-transports";
import { createModernScenario } from "../support/modern-scenario";
import { eventually } from "../support/wait";

type Transport = Parameters<Client["connect"]>[0];

async function startHttp(): Promise<{ transport: Transport; stop(): Promise<void> }> {
  const server = createModernScenario();
  const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => server.connect(t) }));
  const port = await listenLoopback(listener);
  return { transport: new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)), stop: async () => (await closeHttp(listener), await server.close()) };
}

async function startStdio(): Promise<{ transport: Transport; stop(): Promise<void> }> {
  const fixture = fileURLToPath(new URL("../e2e/fixtures/modern-stdio.ts", import.meta.url));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", fixture],
    cwd: REPO_ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` } as Record<string, string>,
    stderr: "inherit",
  });
  return { transport, stop: async () => {} };
}

describe.each([
  ["stdio", startStdio],
  ["Streamable HTTP", startHttp],
] as const)("SDK v2 client (auto negotiation) over %s", (_name, start) => {
  let client: Client;
  let stop: () => Promise<void> = async () => {};
  const elicited: string[] = [];

  beforeAll(async () => {
    const started = await start();
    stop = started.stop;
    client = new Client(
      { name: "sdk-v2", version: "2.4.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      elicited.push(request.params.message);
      if (request.params.mode === "url") return { action: "accept" as const };
      const fields = Object.keys(request.params.requestedSchema.properties);
      const content: Record<string, string> = fields.includes("name") ? { name: "Ada" } : { context: "ctx" };
      return { action: "accept" as const, content };
    });
    client.setRequestHandler("sampling/createMessage", async () => ({ role: "assistant", model: "m", content: { type: "text", text: "done" } }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    await client.connect(started.transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await stop();
  });

  it("negotiates 2026-07-28 and lists and calls tools", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["interview", "slow-ask", "touch"]));
  });
  it("runs the multi-round interview through the client's handlers", async () => {
    const result = await client.callTool({ name: "interview", arguments: { topic: "t" } });
    expect(result.content).toEqual([{ type: "text", text: "Ada accept file:///work done" }]);
    expect(elicited).toEqual(expect.arrayContaining(["Name for t?", "Consent"]));
  });
  it("gets a prompt that asks, and reads a resource", async () => {
    const prompt = await client.getPrompt({ name: "ask-prompt" });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "context: ctx" } }]);
    const read = await client.readResource({ uri: "file:///doc" });
    expect(read.contents).toEqual([{ uri: "file:///doc", text: "doc" }]);
    await expect(client.readResource({ uri: "file:///missing" })).rejects.toMatchObject({ code: -32602 });
  });
  it("listens: acknowledged, then the tool list change arrives", async () => {
    let changed = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changed += 1;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: "touch", arguments: {} });
    await eventually(() => changed > 0, "tools/list_changed on the listen stream");
    await subscription.close();
    expect(await subscription.closed).toBe("local");
  });
});
