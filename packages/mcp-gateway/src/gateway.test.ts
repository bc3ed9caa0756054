import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import type { Transport } from "@proto/jsonrpc";
import type { Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import { createGateway } from "./gateway";
import type { Gateway } from "./gateway-types";
import { createAppChild, createToolsOnlyChild, inMemory, inMemory2025, UI, upstream, VIEW_HTML } from "./testing/children";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function setup(ui: boolean): Promise<{ gateway: Gateway; host: Client }> {
  const gateway = createGateway({
    name: "gw",
    children: { alpha: { transport: inMemory(createAppChild("alpha")) }, beta: { transport: inMemory(createAppChild("beta")) }, calc: { transport: inMemory(createToolsOnlyChild()) } },
  });
  open.push(gateway);
  const host = await upstream(gateway, ui ? { extensions: UI } : {});
  open.push(host);
  return { gateway, host };
}

const VIEW = (child: string) => `ui://gw/${child}/ui%3A%2F%2Fapp%2Fview`;

describe("createGateway", () => {
  it("exposes every child's tools under <child>__<name>, nothing colliding, tools-only children included", async () => {
    const { host } = await setup(false);
    const names = (await host.listAllTools()).map((t) => t.name).sort();
    expect(names).toEqual(["alpha__broken", "alpha__echo", "alpha__show", "beta__broken", "beta__echo", "beta__show", "calc__add"]);
    expect(await host.callTool("beta__echo", { text: "hi" })).toMatchObject({ content: [{ type: "text", text: "beta:hi" }] });
    expect(await host.callTool("calc__add", { a: 2, b: 3 })).toMatchObject({ structuredContent: { sum: 5 } });
  });

  it("never shows app-only tools to a host without MCP Apps, nor lets it call them by any name", async () => {
    const { host } = await setup(false);
    const tools = await host.listAllTools();
    expect(tools.some((t) => t.name.endsWith("refresh"))).toBe(false);
    expect(tools.every((t) => t._meta?.ui === undefined && t._meta?.["ui/resourceUri"] === undefined)).toBe(true);
    await expect(host.callTool("alpha__refresh")).rejects.toMatchObject({ code: -32602 });
    await expect(host.callTool("refresh")).rejects.toMatchObject({ code: -32602 });
    expect((await host.listAllResources()).map((r) => r.uri)).toEqual(["alpha+file:///notes.txt", "beta+file:///notes.txt"]);
  });

  it("routes MCP Apps through: links rewritten, views readable though the child does not list them, broken links removed", async () => {
    const { host } = await setup(true);
    const tools = await host.listAllTools();
    expect(tools.find((t) => t.name === "alpha__show")?._meta).toEqual({ ui: { resourceUri: VIEW("alpha"), visibility: ["model", "app"] }, "ui/resourceUri": VIEW("alpha") });
    expect(tools.find((t) => t.name === "beta__refresh")?._meta).toEqual({ ui: { resourceUri: VIEW("beta"), visibility: ["app"] } });
    expect(tools.find((t) => t.name === "alpha__broken")?._meta).toEqual({ ui: { visibility: ["model", "app"] } });
    const read = await host.readResource(VIEW("beta"));
    expect(read.contents).toEqual([{ uri: VIEW("beta"), mimeType: "text/html;profile=mcp-app", text: VIEW_HTML }]);
    const shown = await host.callTool("alpha__show");
    expect(shown.content[1]).toEqual({ type: "resource_link", uri: VIEW("alpha"), name: "view" });
  });

  it("routes a bare child name when one child has it, and lists the candidates when several do", async () => {
    const { host } = await setup(true);
    expect(await host.callTool("add", { a: 1, b: 1 })).toMatchObject({ structuredContent: { sum: 2 } });
    const error = await host.callTool("refresh").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).data).toMatchObject({ code: "M-GW-002", candidates: ["alpha__refresh", "beta__refresh"] });
  });

  it("forwards prompts, namespaced resources and templates", async () => {
    const { host } = await setup(false);
    expect((await host.listAllPrompts()).map((p) => p.name)).toEqual(["alpha__greet", "beta__greet"]);
    expect(await host.getPrompt("beta__greet", { who: "ann" })).toMatchObject({ messages: [{ content: { type: "text", text: "hello ann from beta" } }] });
    // The host speaks 2026-07-28 to the gateway: the result is stamped by the gateway itself, not the child.
    expect(await host.readResource("alpha+file:///notes.txt")).toEqual({
      contents: [{ uri: "alpha+file:///notes.txt", text: "alpha notes" }],
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "gw", version: "0.1.0" } },
    });
    expect((await host.listAllResourceTemplates()).map((t) => t.uriTemplate)).toEqual(["alpha+ui://app/{page}", "beta+ui://app/{page}"]);
  });

  it("keeps a 2026-07-28 child's protocol fields (resultType, cache hints, its serverInfo) out of a 2025-11-25 session's results", async () => {
    const gateway = createGateway({ name: "gw", children: { alpha: { transport: inMemory(createAppChild("alpha")) }, calc: { transport: inMemory(createToolsOnlyChild()) } } });
    open.push(gateway);
    const host = await upstream(gateway, { protocol: "2025-11-25" });
    open.push(host);
    expect(await host.callTool("alpha__echo", { text: "x" })).toEqual({ content: [{ type: "text", text: "alpha:x" }] });
    expect(await host.callTool("calc__add", { a: 1, b: 2 })).toEqual({ content: [{ type: "text", text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    expect(await host.getPrompt("alpha__greet", { who: "ann" })).toEqual({ messages: [{ role: "user", content: { type: "text", text: "hello ann from alpha" } }] });
    expect(await host.readResource("alpha+file:///notes.txt")).toEqual({ contents: [{ uri: "alpha+file:///notes.txt", text: "alpha notes" }] });
  });

  it("answers no completions, and -32601 naming the child for a subscription, when the child lacks the capability (nothing to retry)", async () => {
    const plain = createServer({ name: "plain", version: "1.0.0" });
    plain.resource({ uri: "file:///a.txt", name: "a" }, () => "a");
    // A 2025-11-25 child that serves resources without declaring resources.subscribe (the official SDK's default).
    const make = inMemory2025(plain);
    const noSubscribe = async (): Promise<Transport> => {
      const transport = await make();
      const start = transport.start.bind(transport);
      return Object.assign(transport, {
        start: (sink: Parameters<Transport["start"]>[0]) =>
          start({
            payload: (p, exchange) => sink.payload(JSON.parse(JSON.stringify(p).replace('"subscribe":true', '"subscribe":false')) as typeof p, exchange),
            error: (e) => sink.error(e),
            closed: (reason) => sink.closed(reason),
          }),
      });
    };
    const gateway = createGateway({ name: "gw", children: { alpha: { transport: inMemory(createAppChild("alpha")) }, plain: { transport: noSubscribe } } });
    open.push(gateway);
    const host = await upstream(gateway, { protocol: "2025-11-25" });
    open.push(host);
    expect(await host.complete({ ref: { type: "ref/prompt", name: "alpha__greet" }, argument: { name: "who", value: "a" } })).toEqual({ completion: { values: [] } });
    const refused = await host.subscribe("plain+file:///a.txt").catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: -32601, data: { child: "plain", method: "resources/subscribe", capability: "resources.subscribe" } });
    expect((refused as Error).message).toContain('child server "plain"');
  });

  it("names the child in its client's warnings (a 2025-11-25 child refusing the server/discover probe)", async () => {
    const warnings: string[] = [];
    const gateway = createGateway({ name: "gw", children: { old: { transport: inMemory2025(createToolsOnlyChild()) } }, logger: { warn: (text) => void warnings.push(text), error: (text) => void warnings.push(text) } });
    open.push(gateway);
    await gateway.start();
    expect(warnings.filter((w) => w.includes("server/discover"))).toEqual([expect.stringMatching(/^gateway: child "old": server\/discover failed/)]);
  });

  it("answers unknown names and URIs with -32602 and the repair data", async () => {
    const { host } = await setup(false);
    await expect(host.callTool("nope__echo")).rejects.toMatchObject({ code: -32602, data: { code: "M-GW-002", tool: "nope__echo" } });
    await expect(host.readResource("ui://gw/zeta/ui%3A%2F%2Fx")).rejects.toMatchObject({ code: -32602, data: { code: "M-UI-002" } });
  });
});
