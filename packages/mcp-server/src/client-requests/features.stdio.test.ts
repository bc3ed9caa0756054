import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../../", import.meta.url));
const fixture = fileURLToPath(new URL("./fixtures/features-server.ts", import.meta.url));

describe("every server feature over real stdio, with the official SDK client", () => {
  let client: Client;
  const logs: string[] = [];
  const updates: string[] = [];

  beforeAll(async () => {
    client = new Client(
      { name: "sdk-over-stdio", version: "1.0.0" },
      { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
    );
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level}:${String(n.params.data)}`));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "ok" }, model: "stdio-model" }));
    client.setRequestHandler(ElicitRequestSchema, async (r) => (r.params.mode === "url" ? { action: "accept" } : { action: "accept", content: { name: "Ada" } }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///work", name: "work" }] }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", fixture],
      cwd: root,
      env: { TSX_TSCONFIG_PATH: `${root}tsconfig.json` },
      stderr: "inherit",
    });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it("paginates resources, reads a template, completes, gets a prompt", async () => {
    const first = await client.listResources();
    expect(first.resources.map((r) => r.uri)).toEqual(["mem://doc/1", "mem://doc/2"]);
    const second = await client.listResources({ cursor: first.nextCursor! });
    expect(second.resources.map((r) => r.uri)).toEqual(["mem://doc/3"]);
    const user = await client.readResource({ uri: "users://7?fields=name&fields=email" });
    expect(JSON.parse((user.contents[0] as { text: string }).text)).toEqual({ id: "7", fields: ["name", "email"] });
    const ids = await client.complete({ ref: { type: "ref/resource", uri: "users://{id}{?fields*}" }, argument: { name: "id", value: "1" } });
    expect(ids.completion.values).toEqual(["1", "10"]);
    const who = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "wo" } });
    expect(who.completion.values).toEqual(["world", "wombat"]);
    expect((await client.getPrompt({ name: "greet", arguments: { who: "stdio" } })).messages[0]?.content).toEqual({ type: "text", text: "Hello, stdio!" });
  });

  it("delivers resources/updated to the subscriber", async () => {
    await client.subscribeResource({ uri: "mem://doc/2" });
    const touched = await client.callTool({ name: "touch", arguments: { uri: "mem://doc/2" } });
    expect(touched.content).toEqual([{ type: "text", text: "1" }]);
    await client.ping();
    expect(updates).toEqual(["mem://doc/2"]);
  });

  it("filters logs by level and reports progress", async () => {
    await client.setLoggingLevel("warning");
    const progress: Progress[] = [];
    await client.callTool({ name: "chatty", arguments: {} }, undefined, { onprogress: (p) => progress.push(p) });
    await client.ping();
    expect(logs).toEqual(["error:trouble"]);
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3]);
  });

  it("round-trips sampling, form and URL elicitation and roots, then completes the URL elicitation", async () => {
    const completed = new Promise<string>((resolve) => client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => resolve(n.params.elicitationId)));
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(result.structuredContent).toEqual({
      model: "stdio-model",
      form: { action: "accept", content: { name: "Ada" } },
      roots: ["file:///work"],
      link: { action: "accept", elicitationId: "auth-1" },
    });
    expect((await client.callTool({ name: "finish", arguments: {} })).content).toEqual([{ type: "text", text: "true" }]);
    expect(await completed).toBe("auth-1");
  });

  it("cancels a running tool: the server aborts its handler, and keeps serving", async () => {
    const status = async (): Promise<{ running: number; aborted: number }> => {
      const result = await client.callTool({ name: "slow-status", arguments: {} });
      return JSON.parse((result.content as { text: string }[])[0]!.text) as { running: number; aborted: number };
    };
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal });
    // stdio is one ordered stream: each status call is read after the call it follows.
    for (let polls = 0; (await status()).running === 0; polls++) expect(polls).toBeLessThan(1_000);
    controller.abort("stop");
    await expect(call).rejects.toThrow();
    // notifications/cancelled went out before this status request, on the same stream.
    expect(await status()).toEqual({ running: 0, aborted: 1 });
    await expect(client.ping()).resolves.toEqual({});
  });
});
