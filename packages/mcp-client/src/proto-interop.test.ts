import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { createProtoFixture, PROTO_RESOURCES, type ProtoFixture } from "./fixtures/proto-server";
import { until } from "./fixtures/until";

const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

for (const protocol of ["2025-11-25", "auto"] as const) {
const modern = protocol === "auto";

async function setup(options: Partial<ClientOptions> = {}): Promise<{ client: Client; fixture: ProtoFixture }> {
  const fixture = createProtoFixture();
  const [ours, theirs] = createMemoryTransportPair();
  await fixture.server.connect(theirs);
  const client = createClient({ info: { name: "host", version: "1" }, protocol, ...options });
  clients.push(client);
  await client.connect(ours);
  return { client, fixture };
}

describe(`client against our own @proto/mcp-server (protocol: "${protocol}")`, () => {
  it("reaches its era and pages through tools, resources, templates and prompts", async () => {
    const { client } = await setup();
    expect(client.server).toMatchObject({ protocolVersion: modern ? "2026-07-28" : "2025-11-25", info: { name: "proto-fixture" }, instructions: "Ours." });
    const firstPage = await client.listTools();
    expect(firstPage.tools).toHaveLength(3);
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const tools = await client.listAllTools();
    expect(tools.length).toBeGreaterThan(6);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(Array.from({ length: PROTO_RESOURCES }, (_, i) => `proto://r/${i}`));
    expect((await client.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["proto://user/{id}"]);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(["greet"]);
  });

  it.runIf(modern)("probes with server/discover and learns the versions our server serves", async () => {
    const { client } = await setup();
    expect(client.server?.supportedVersions).toEqual(["2026-07-28"]);
    expect(client.server?.protocolVersion).toBe("2026-07-28");
  });

  it("calls tools, reads resources, gets prompts and completes arguments", async () => {
    const { client } = await setup();
    expect((await client.callTool("add", { a: 1, b: 2 })).structuredContent).toEqual({ sum: 3 });
    expect((await client.callToolOrThrow("echo", { text: "t" })).content).toEqual([{ type: "text", text: "t" }]);
    const invalid = await client.callTool("echo", {});
    expect(invalid.isError).toBe(true);
    expect((await client.readResource("proto://r/4")).contents[0]).toMatchObject({ uri: "proto://r/4", text: "text 4" });
    expect((await client.readResource("proto://user/u2")).contents[0]).toMatchObject({ text: "user u2" });
    expect((await client.getPrompt("greet", { who: "you" })).messages[0]?.content).toEqual({ type: "text", text: "Hello you" });
    expect((await client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "wa" } })).completion.values).toEqual(["wally"]);
    expect((await client.complete({ ref: { type: "ref/resource", uri: "proto://user/{id}" }, argument: { name: "id", value: "u" } })).completion.values).toEqual(["u1", "u2"]);
  });

  it("subscribes to a resource and sees it updated; logging respects the level", async () => {
    const { client, fixture } = await setup();
    await client.subscribe("proto://r/1");
    const updated = new Promise((resolve) => client.on("resourceUpdated", resolve));
    // The server counts the 2025 sessions it told; a 2026-07-28 listen stream is not a session.
    expect(fixture.server.resourceUpdated("proto://r/1")).toBe(modern ? 0 : 1);
    expect(await updated).toMatchObject({ uri: "proto://r/1" });
    const logs: unknown[] = [];
    client.on("log", (m) => logs.push(m.data));
    await client.setLoggingLevel("warning");
    await client.callTool("log");
    await until(() => logs.length === 1, "the log");
    expect(logs).toEqual(["loud"]);
  });

  it("serves sampling, elicitation with defaults and roots", async () => {
    const { client } = await setup({
      sampling: { createMessage: () => ({ role: "assistant", model: "m-1", content: { type: "text", text: "4" } }) },
      elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }), applyDefaults: true },
      roots: () => [{ uri: "file:///x" }, { uri: "file:///y" }],
    });
    expect((await client.callTool("ask-model")).content).toEqual([{ type: "text", text: "model m-1" }]);
    expect(JSON.parse(((await client.callTool("ask-user")).content[0] as { text: string }).text)).toMatchObject({ action: "accept", content: { name: "Ada", lang: "en" } });
    expect((await client.callTool("list-roots")).content).toEqual([{ type: "text", text: "file:///x,file:///y" }]);
  });

  it("invalidates cached tools when a tool is added", async () => {
    const { client, fixture } = await setup();
    const before = await client.listAllTools();
    const changed = new Promise<void>((resolve) => client.on("toolsChanged", () => resolve()));
    fixture.server.tool({ name: "late", inputSchema: { type: "object" } }, () => "late");
    await changed;
    expect((await client.listAllTools()).length).toBe(before.length + 1);
  });

  it("progress resets the timeout on our server too", async () => {
    const { client, fixture } = await setup();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 2 }, { timeoutMs: 1000, onProgress: (p) => seen.push(p.progress) });
    for (let i = 1; i <= 2; i++) {
      await until(() => fixture.gates.waiting === 1, "the tool to wait");
      await vi.advanceTimersByTimeAsync(900);
      fixture.gates.step();
      await until(() => seen.length === i, `progress ${i}`);
    }
    await until(() => fixture.gates.waiting === 1, "the last step");
    await vi.advanceTimersByTimeAsync(900);
    fixture.gates.step();
    expect((await call).content).toEqual([{ type: "text", text: "done" }]);
  });

  it("a cancelled call rejects ABORTED and the session goes on", async () => {
    const { client, fixture } = await setup();
    const aborter = new AbortController();
    const call = client.callTool("slow", { steps: 1 }, { signal: aborter.signal }).catch((e: unknown) => e);
    await until(() => fixture.gates.waiting === 1, "the tool to wait");
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
    expect((await client.callTool("echo", { text: "after" })).content).toEqual([{ type: "text", text: "after" }]);
  });
});
}
