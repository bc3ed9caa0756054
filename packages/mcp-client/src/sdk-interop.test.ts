import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { createSdkFixture, RESOURCE_COUNT, type SdkFixture } from "./fixtures/sdk-server";
import { ClientFaultCode, McpClientError, ToolCallError } from "./errors";
import { until } from "./fixtures/until";

const open: Client[] = [];

/** Fake only the timers the client's deadlines use, so the event loop keeps turning. */
function fakeTimers(): void {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
}

async function setup(options: Partial<ClientOptions> = {}): Promise<{ client: Client; fixture: SdkFixture }> {
  const fixture = createSdkFixture();
  const bridge = createSdkBridge();
  await fixture.server.connect(bridge.sdk);
  const client = createClient({ info: { name: "test-host", version: "0.0.1" }, ...options });
  open.push(client);
  await client.connect(bridge.ours);
  return { client, fixture };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

describe("client against the official SDK's McpServer (in memory)", () => {
  it("initializes with the latest version and reads the server's details", async () => {
    const { client } = await setup();
    expect(client.state).toBe("connected");
    expect(client.server).toMatchObject({ protocolVersion: "2025-11-25", info: { name: "sdk-fixture" }, instructions: "Use the tools." });
    expect(client.server?.capabilities.tools).toBeDefined();
    await client.ping();
  });

  it("lists and calls tools, with structuredContent validated against the outputSchema", async () => {
    const { client } = await setup();
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toContain("add");
    const iterated: string[] = [];
    for await (const tool of client.tools()) iterated.push(tool.name);
    expect(iterated).toEqual(tools.map((t) => t.name));
    const sum = await client.callTool("add", { a: 2, b: 3 });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const echo = await client.callToolOrThrow("echo", { text: "hi" });
    expect(echo.content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("returns isError results, and the throwing helper throws ToolCallError with the tool's text", async () => {
    const { client } = await setup();
    const result = await client.callTool("fail");
    expect(result.isError).toBe(true);
    const error = await client.callToolOrThrow("fail").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolCallError);
    expect((error as ToolCallError).message).toContain("it broke");
    expect((error as ToolCallError).code).toBe(ClientFaultCode.ToolError);
  });

  it("follows resource pages to the end, iterator and listAll alike", async () => {
    const { client } = await setup();
    const first = await client.listResources();
    expect(first.resources).toHaveLength(10);
    expect(first.nextCursor).toBe("10");
    const all = await client.listAllResources();
    expect(all.map((r) => r.uri)).toEqual(Array.from({ length: RESOURCE_COUNT }, (_, i) => `mem://item/${i}`));
    let n = 0;
    for await (const _ of client.resources()) n++;
    expect(n).toBe(RESOURCE_COUNT);
    expect(await client.listAllResourceTemplates()).toEqual([{ uriTemplate: "mem://item/{id}", name: "item" }]);
    const read = await client.readResource("mem://item/3");
    expect(read.contents[0]).toMatchObject({ text: "content of mem://item/3" });
  });

  it("subscribes, raises resourceUpdated, and unsubscribes", async () => {
    const { client, fixture } = await setup();
    await client.subscribe("mem://item/1");
    expect(fixture.subscribed.has("mem://item/1")).toBe(true);
    const updated = new Promise((resolve) => client.on("resourceUpdated", resolve));
    await fixture.server.server.sendResourceUpdated({ uri: "mem://item/1" });
    expect(await updated).toMatchObject({ uri: "mem://item/1" });
    await client.unsubscribe("mem://item/1");
    expect(fixture.subscribed.size).toBe(0);
  });

  it("gets prompts and completes their arguments", async () => {
    const { client } = await setup();
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt("greet", { name: "Ada" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello, Ada!" });
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "al" } });
    expect(completion.completion.values).toEqual(["alice", "albert"]);
  });

  it("sets the logging level and raises log events at or above it", async () => {
    const { client } = await setup();
    const levels: string[] = [];
    client.on("log", (message) => levels.push(message.level));
    await client.setLoggingLevel("warning");
    await client.callTool("log", { text: "x" });
    await vi.waitFor(() => expect(levels).toEqual(["warning", "error"]));
  });

  it("refuses a feature the server did not declare, before sending anything", async () => {
    const { client } = await setup();
    const server = client.server;
    expect(server?.capabilities.tasks).toBeUndefined();
    const error = await client.request("tasks/list", undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).code).toBe(ClientFaultCode.CapabilityMissing);
    expect((error as Error).message).toMatch(/"tasks\.list" capability/);
  });

  it("invalidates the cached tool list on list_changed and raises toolsChanged", async () => {
    const { client, fixture } = await setup();
    const before = await client.listAllTools();
    expect(await client.listAllTools()).toBe(before);
    const changed = new Promise<void>((resolve) => client.on("toolsChanged", () => resolve()));
    fixture.server.registerTool("late", { description: "added after connect" }, () => ({ content: [] }));
    await changed;
    const after = await client.listAllTools();
    expect(after.map((t) => t.name)).toContain("late");
    expect(after).toHaveLength(before.length + 1);
  });

  it("serves sampling, form elicitation with defaults, URL elicitation and roots", async () => {
    const { client } = await setup({
      sampling: { createMessage: async (params) => ({ role: "assistant", model: "test-model", content: { type: "text", text: `4 (${params.maxTokens})` } }) },
      elicitation: {
        form: async (params) => ({ action: "accept", content: { name: `${params.message.length}` } }),
        url: async (params) => ({ action: params.url.startsWith("https://") ? "accept" : "decline" }),
        applyDefaults: true,
      },
      roots: [{ uri: "file:///work", name: "work" }],
    });
    expect((await client.callTool("ask-model")).content).toEqual([{ type: "text", text: "model test-model said 4 (10)" }]);
    const form = await client.callTool("ask-user");
    expect(JSON.parse((form.content[0] as { text: string }).text)).toEqual({ action: "accept", content: { name: "12", color: "blue" } });
    expect((await client.callTool("ask-url")).content).toEqual([{ type: "text", text: "accept" }]);
    expect((await client.callTool("list-roots")).content).toEqual([{ type: "text", text: "file:///work" }]);
    await client.setRoots([{ uri: "file:///other" }]);
    expect((await client.callTool("list-roots")).content).toEqual([{ type: "text", text: "file:///other" }]);
  });

  it("progress resets the timeout: a call outliving its timeout succeeds while progress flows", async () => {
    const { client, fixture } = await setup();
    fakeTimers();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 3 }, { timeoutMs: 1000, onProgress: (p) => seen.push(p.progress) });
    for (let i = 1; i <= 3; i++) {
      await until(() => fixture.gates.waiting === 1, "the tool to wait");
      await vi.advanceTimersByTimeAsync(900);
      fixture.gates.step();
      await until(() => seen.length === i, `progress ${i}`);
    }
    await until(() => fixture.gates.waiting === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(900);
    fixture.gates.step();
    expect((await call).content).toEqual([{ type: "text", text: "done" }]);
    expect(seen).toEqual([1, 2, 3]);
  });

  it("without progress the same call times out, and the server is told to cancel", async () => {
    const { client, fixture } = await setup();
    fakeTimers();
    const call = client.callTool("slow", { steps: 3 }, { timeoutMs: 1000 }).catch((e: unknown) => e);
    await until(() => fixture.gates.waiting === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(1000);
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("TIMEOUT");
    await until(() => fixture.cancelled.length === 1, "the cancellation");
    expect(fixture.cancelled).toEqual(["slow"]);
  });

  it("maxTotalTimeoutMs ends a call even while progress flows", async () => {
    const { client, fixture } = await setup();
    fakeTimers();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 5 }, { timeoutMs: 1000, maxTotalTimeoutMs: 2000, onProgress: (p) => seen.push(p.progress) }).catch((e: unknown) => e);
    for (let i = 1; i <= 2; i++) {
      await until(() => fixture.gates.waiting === 1, "the tool to wait");
      await vi.advanceTimersByTimeAsync(900);
      fixture.gates.step();
      await until(() => seen.length === i, `progress ${i}`);
    }
    await vi.advanceTimersByTimeAsync(300);
    const error = await call;
    expect((error as RequestError).code).toBe("TIMEOUT");
    expect((error as Error).message).toMatch(/maxTotalTimeoutMs/);
  });

  it("aborting a call rejects it with ABORTED and cancels it on the server", async () => {
    const { client, fixture } = await setup();
    const aborter = new AbortController();
    const call = client.callTool("slow", { steps: 1 }, { signal: aborter.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(fixture.gates.waiting).toBe(1));
    aborter.abort(new Error("user stop"));
    expect(((await call) as RequestError).code).toBe("ABORTED");
    await vi.waitFor(() => expect(fixture.cancelled).toEqual(["slow"]));
    expect((await client.callTool("echo", { text: "still fine" })).content).toEqual([{ type: "text", text: "still fine" }]);
  });

  it("a cancel racing a result settles the call exactly once, whichever wins", async () => {
    const { client, fixture } = await setup();
    const outcomes: string[] = [];
    for (let delay = 0; delay < 6; delay++) {
      const aborter = new AbortController();
      let settled = 0;
      const call = client.callTool("slow", { steps: 0 }, { signal: aborter.signal }).then(
        () => (settled++, "result"),
        (e: unknown) => (settled++, (e as RequestError).code),
      );
      await vi.waitFor(() => expect(fixture.gates.waiting).toBe(1));
      fixture.gates.step();
      for (let i = 0; i < delay; i++) await Promise.resolve();
      aborter.abort();
      outcomes.push(await call);
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(settled).toBe(1);
    }
    for (const outcome of outcomes) expect(["result", "ABORTED"]).toContain(outcome);
    expect(outcomes).toContain("ABORTED");
    expect((await client.ping()) === undefined).toBe(true);
  });

  it("runs tool calls concurrently with callTools and returns them in call order", async () => {
    const { client, fixture } = await setup();
    const batch = client.callTools([{ name: "slow", arguments: { steps: 0 } }, { name: "add", arguments: { a: 1, b: 1 } }, { name: "fail" }], { timeoutMs: 10_000 });
    await vi.waitFor(() => expect(fixture.gates.waiting).toBe(1));
    fixture.gates.step();
    const [slow, add, fail] = await batch;
    expect(slow).toMatchObject({ ok: true, result: { content: [{ type: "text", text: "done" }] } });
    expect(add).toMatchObject({ ok: true, result: { structuredContent: { sum: 2 } } });
    expect(fail).toMatchObject({ ok: true, result: { isError: true } });
  });
});
