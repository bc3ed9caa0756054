import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import type { Client, ClientOptions } from "./client-types";
import type { ClientEvents } from "./events";
import { createClient } from "./client";
import { RESOURCE_COUNT } from "./fixtures/sdk-server";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/sdk-stdio-server.ts", import.meta.url));
const clients: Client[] = [];

function spawnServer() {
  return createStdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", fixture],
    cwd: root,
    env: { TSX_TSCONFIG_PATH: `${root}tsconfig.json` },
  });
}

function make(options: Partial<ClientOptions> = {}): Client {
  const client = createClient({ info: { name: "stdio-host", version: "1" }, transport: spawnServer, connectTimeoutMs: 60_000, ...options });
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("client against the official SDK's McpServer over stdio", { timeout: 90_000 }, () => {
  it("covers tools, resources, prompts, completions, logging and progress", async () => {
    const client = make();
    const server = await client.connect();
    expect(server).toMatchObject({ protocolVersion: "2025-11-25", info: { name: "sdk-fixture" } });
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(expect.arrayContaining(["add", "count", "crash"]));
    expect((await client.callTool("add", { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    expect(await client.listAllResources()).toHaveLength(RESOURCE_COUNT);
    expect((await client.readResource("mem://item/7")).contents[0]).toMatchObject({ text: "content of mem://item/7" });
    expect((await client.getPrompt("greet", { name: "Bo" })).messages).toHaveLength(1);
    expect((await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "b" } })).completion.values).toEqual(["bob"]);
    const logs: string[] = [];
    client.on("log", (m) => logs.push(String(m.data)));
    await client.setLoggingLevel("error");
    await client.callTool("log", { text: "over stdio" });
    const progress: number[] = [];
    const counted = await client.callTool("count", { n: 5 }, { onProgress: (p) => progress.push(p.progress) });
    expect(counted.content).toEqual([{ type: "text", text: "counted 5" }]);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(logs).toEqual(["error: over stdio"]);
    await client.ping();
  });

  it("serves sampling, elicitation and roots to a server in another process", async () => {
    const client = make({
      sampling: { createMessage: () => ({ role: "assistant", model: "stdio-model", content: { type: "text", text: "4" } }) },
      elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }), applyDefaults: true },
      roots: [{ uri: "file:///srv" }],
    });
    expect((await client.callTool("ask-model")).content).toEqual([{ type: "text", text: "model stdio-model said 4" }]);
    const form = await client.callTool("ask-user");
    expect(JSON.parse((form.content[0] as { text: string }).text)).toEqual({ action: "accept", content: { name: "Ada", color: "blue" } });
    expect((await client.callTool("list-roots")).content).toEqual([{ type: "text", text: "file:///srv" }]);
  });

  it("a server process that dies mid-call rejects the call, and the next call starts a new one", async () => {
    const client = make();
    const events: (keyof ClientEvents)[] = [];
    for (const e of ["connected", "disconnected", "reconnected"] as const) client.on(e, () => events.push(e));
    await client.connect();
    const error = await client.callTool("crash", {}, { validateOutput: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("CLOSED");
    expect(String((error as Error).cause)).toMatch(/exit|3/);
    expect((await client.callTool("echo", { text: "back" })).content).toEqual([{ type: "text", text: "back" }]);
    expect(events).toEqual(["connected", "disconnected", "reconnected"]);
  });
});
