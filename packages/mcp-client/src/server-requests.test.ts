import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { applyElicitationDefaults } from "./elicitation";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setup(options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer; errors: unknown[]; warnings: string[] }> {
  const errors: unknown[] = [];
  const warnings: string[] = [];
  const server = await createScriptedServer();
  const client = createClient({ info: { name: "t", version: "1" }, logger: { warn: (m) => warnings.push(m), error: (_m, d) => errors.push(d) }, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server, errors, warnings };
}

const capabilitiesSent = (server: ScriptedServer) => (server.received[0]?.params as { capabilities: unknown }).capabilities;
const errorOf = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e as JsonRpcError);
const form = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" }, age: { type: "integer", default: 30 } }, required: ["name"] } };

describe("capabilities follow the handlers", () => {
  it("declares nothing by default", async () => {
    const { server } = await setup();
    expect(capabilitiesSent(server)).toEqual({});
  });

  it("declares roots, sampling (with tools), both elicitation modes and extensions when given", async () => {
    const { server } = await setup({
      roots: [],
      sampling: { createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "" } }), tools: true },
      elicitation: { form: () => ({ action: "cancel" }), url: () => ({ action: "cancel" }) },
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    });
    expect(capabilitiesSent(server)).toEqual({
      roots: { listChanged: true },
      sampling: { tools: {} },
      elicitation: { form: {}, url: {} },
      extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
    });
  });

  it("answers -32601 for a feature it did not declare, and always answers ping", async () => {
    const { server } = await setup();
    expect((await errorOf(server.peer.request("sampling/createMessage", { messages: [], maxTokens: 1 })))?.code).toBe(-32601);
    expect(await server.peer.request("ping")).toEqual({});
  });
});

describe("sampling", () => {
  it("refuses tools when sampling.tools was not declared", async () => {
    const { server } = await setup({ sampling: { createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "x" } }) } });
    const error = await errorOf(server.peer.request("sampling/createMessage", { messages: [], maxTokens: 5, tools: [] }));
    expect(error?.code).toBe(-32602);
    expect(error?.message).toMatch(/sampling\.tools/);
  });

  it("aborts the handler's signal when the server cancels", async () => {
    let aborted: Promise<void> | undefined;
    const { server } = await setup({
      sampling: {
        createMessage: (_params, context) => {
          aborted = new Promise((resolve) => context.signal.addEventListener("abort", () => resolve()));
          return new Promise(() => {});
        },
      },
    });
    const aborter = new AbortController();
    const call = errorOf(server.peer.request("sampling/createMessage", { messages: [], maxTokens: 5 }, { signal: aborter.signal }));
    await new Promise((resolve) => setImmediate(resolve));
    aborter.abort();
    await call;
    await aborted;
  });
});

describe("elicitation", () => {
  it("fills defaults into accepted content with applyDefaults", async () => {
    const { server } = await setup({ elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }), applyDefaults: true } });
    expect(await server.peer.request("elicitation/create", form)).toEqual({ action: "accept", content: { name: "Ada", age: 30 } });
  });

  it("sends content as given without applyDefaults, and drops content on decline", async () => {
    let action: "accept" | "decline" = "accept";
    const { server } = await setup({ elicitation: { form: () => ({ action, content: { name: "Ada" } }) } });
    expect(await server.peer.request("elicitation/create", form)).toEqual({ action: "accept", content: { name: "Ada" } });
    action = "decline";
    expect(await server.peer.request("elicitation/create", form)).toEqual({ action: "decline" });
  });

  it("never sends accepted content that breaks the requested schema", async () => {
    const { server, errors } = await setup({ elicitation: { form: () => ({ action: "accept", content: { age: 3 } }) } });
    expect((await errorOf(server.peer.request("elicitation/create", form)))?.code).toBe(-32603);
    expect(String(errors[0])).toMatch(/requestedSchema.*name/);
  });

  it("refuses a mode it does not support and a nested schema", async () => {
    const { server } = await setup({ elicitation: { form: () => ({ action: "cancel" }) } });
    const url = await errorOf(server.peer.request("elicitation/create", { mode: "url", message: "m", url: "https://x", elicitationId: "1" }));
    expect(url?.code).toBe(-32602);
    expect(url?.message).toMatch(/"url"-mode/);
    const nested = await errorOf(server.peer.request("elicitation/create", { message: "m", requestedSchema: { type: "object", properties: { a: { type: "object" } } } }));
    expect(nested?.code).toBe(-32602);
  });

  it("raises elicitationComplete for URL mode", async () => {
    const { client, server } = await setup({ elicitation: { url: () => ({ action: "accept" }) } });
    const done = new Promise((resolve) => client.on("elicitationComplete", resolve));
    await server.peer.notify("notifications/elicitation/complete", { elicitationId: "e1" });
    expect(await done).toEqual({ elicitationId: "e1" });
  });

  it("applyElicitationDefaults keeps given values and adds missing defaults", () => {
    expect(applyElicitationDefaults(form.requestedSchema as never, { name: "x", age: 1 })).toEqual({ name: "x", age: 1 });
    expect(applyElicitationDefaults(form.requestedSchema as never, undefined)).toEqual({ age: 30 });
  });
});

describe("roots", () => {
  it("lists roots from a function and notifies changes", async () => {
    let roots = [{ uri: "file:///a" }];
    const { client, server } = await setup({ roots: () => roots });
    expect(await server.peer.request("roots/list")).toEqual({ roots: [{ uri: "file:///a" }] });
    roots = [{ uri: "file:///b" }];
    await client.notifyRootsChanged();
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.notifications.map((n) => n.method)).toContain("notifications/roots/list_changed");
    expect(await server.peer.request("roots/list")).toEqual({ roots: [{ uri: "file:///b" }] });
  });

  it("refuses roots that are not file:// URIs, and setRoots without the roots option", async () => {
    expect(() => createClient({ info: { name: "t", version: "1" }, roots: [{ uri: "https://x" }] })).toThrow(/file:\/\//);
    const { client } = await setup();
    await expect(client.setRoots([{ uri: "file:///x" }])).rejects.toThrow(/roots/);
  });
});

describe("notifications", () => {
  it("routes an extension's notification to its handler until unregistered", async () => {
    const { client, server } = await setup();
    const seen: unknown[] = [];
    const off = client.handleNotification("com.example/ping", (params) => seen.push(params));
    await server.peer.notify("com.example/ping", { n: 1 });
    await new Promise((resolve) => setImmediate(resolve));
    off();
    await server.peer.notify("com.example/ping", { n: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ n: 1 }]);
    expect(() => client.handleNotification("notifications/message", () => {})).toThrow(/client\.on/);
  });

  it("ignores a log message with an invalid level, with a warning", async () => {
    const { client, server, warnings } = await setup();
    const logs: unknown[] = [];
    client.on("log", (m) => logs.push(m));
    await server.peer.notify("notifications/message", { level: "loud", data: "x" });
    await server.peer.notify("notifications/message", { level: "info", data: "y" });
    await new Promise((resolve) => setImmediate(resolve));
    expect(logs).toEqual([{ level: "info", data: "y" }]);
    expect(warnings.join()).toMatch(/valid `level`/);
  });
});
