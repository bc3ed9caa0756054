import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcSuccess } from "@proto/jsonrpc";
import type { ListToolsResult } from "@proto/mcp-protocol";
import type { ExtensionHost, RegistryEntry } from "./extension";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, initializeRaw } from "./test-helpers";

const OBJECT = { type: "object" } as const;
let server: Server;
afterEach(async () => {
  await server?.close();
});

function describeEntry(entry: RegistryEntry): string {
  switch (entry.kind) {
    case "tools":
    case "prompts":
      return `${entry.kind}:${entry.item.name}`;
    case "resources":
      return `${entry.kind}:${entry.item.uri}`;
    case "resourceTemplates":
      return `${entry.kind}:${entry.item.uriTemplate}`;
  }
}

describe("the registry surface of the extension API", () => {
  it("hands installed() a live, read-only view of what is served, undecorated", () => {
    server = createServer({ name: "x", version: "1" });
    server.tool({ name: "early", inputSchema: OBJECT, _meta: { k: 1 } }, () => "");
    let host: ExtensionHost | undefined;
    let seenAtInstall: string[] = [];
    server.use({
      id: "com.example/watch",
      decorate: { tools: () => undefined },
      installed(h) {
        host = h;
        seenAtInstall = h.registry.tools().map((t) => t.name);
      },
    });
    expect(seenAtInstall).toEqual(["early"]);
    const registry = (host as ExtensionHost).registry;
    server.tool({ name: "hidden", inputSchema: OBJECT, hidden: true }, () => "");
    server.tool({ name: "off", inputSchema: OBJECT, enabled: false }, () => "");
    server.resource({ uri: "file:///a", name: "a" }, () => "a");
    server.resourceTemplate({ uriTemplate: "file:///t/{id}", name: "t" }, () => "t");
    server.prompt({ name: "p" }, () => "p");
    expect(registry.tools().map((t) => t.name)).toEqual(["early"]);
    expect(registry.tool("early")).toEqual({ name: "early", inputSchema: OBJECT, _meta: { k: 1 } });
    expect(registry.tool("hidden")).toBeUndefined();
    expect(registry.tool("__proto__")).toBeUndefined();
    server.enableTool("off");
    expect(registry.tool("off")?.name).toBe("off");
    expect(registry.resources()).toEqual([{ uri: "file:///a", name: "a" }]);
    expect(registry.resource("file:///a")?.name).toBe("a");
    expect(registry.resourceTemplates().map((t) => t.uriTemplate)).toEqual(["file:///t/{id}"]);
    expect(registry.prompts().map((p) => p.name)).toEqual(["p"]);
    server.removeResource("file:///a");
    expect(registry.resource("file:///a")).toBeUndefined();
    expect(Object.isFrozen(registry.tools())).toBe(true);
  });

  it("tells extensions of every registration and removal, handles included", () => {
    server = createServer({ name: "x", version: "1" });
    const events: string[] = [];
    server.use({
      id: "com.example/watch",
      registering: (entry) => void events.push(`registering ${describeEntry(entry)}`),
      registered: (entry) => void events.push(`registered ${describeEntry(entry)}`),
      removed: (entry) => void events.push(`removed ${describeEntry(entry)}`),
    });
    const tool = server.tool({ name: "t", inputSchema: OBJECT, hidden: true }, () => "");
    const resource = server.resource({ uri: "file:///r", name: "r" }, () => "");
    const template = server.resourceTemplate({ uriTemplate: "file:///x/{id}", name: "x" }, () => "");
    const prompt = server.prompt({ name: "p" }, () => "");
    tool.remove();
    resource.remove();
    template.remove();
    prompt.remove();
    expect(server.removeTool("t")).toBe(false);
    expect(events).toEqual([
      "registering tools:t",
      "registered tools:t",
      "registering resources:file:///r",
      "registered resources:file:///r",
      "registering resourceTemplates:file:///x/{id}",
      "registered resourceTemplates:file:///x/{id}",
      "registering prompts:p",
      "registered prompts:p",
      "removed tools:t",
      "removed resources:file:///r",
      "removed resourceTemplates:file:///x/{id}",
      "removed prompts:p",
    ]);
  });

  it("lets registering() refuse a registration: the call throws it and nothing is registered", () => {
    server = createServer({ name: "x", version: "1" });
    const registered: string[] = [];
    server.use({
      id: "com.example/guard",
      registering(entry) {
        if (describeEntry(entry).includes("forbidden")) throw new TypeError(`${describeEntry(entry)}: forbidden here; choose another name`);
      },
      registered: (entry) => void registered.push(describeEntry(entry)),
    });
    expect(() => server.tool({ name: "forbidden", inputSchema: OBJECT }, () => "")).toThrow("tools:forbidden: forbidden here; choose another name");
    expect(() => server.resource({ uri: "file:///forbidden", name: "r" }, () => "")).toThrow(TypeError);
    expect(() => server.resourceTemplate({ uriTemplate: "file:///forbidden/{id}", name: "r" }, () => "")).toThrow(TypeError);
    expect(() => server.prompt({ name: "forbidden" }, () => "")).toThrow(TypeError);
    expect(registered).toEqual([]);
    expect(server.summary().tools).toEqual([]);
    expect(server.removeResource("file:///forbidden")).toBe(false);
    expect(server.removeResourceTemplate("file:///forbidden/{id}")).toBe(false);
    expect(server.removePrompt("forbidden")).toBe(false);
    // The name is free again: a refused registration left nothing behind.
    server.use({ id: "com.example/late" });
    expect(server.tool({ name: "allowed", inputSchema: OBJECT }, () => "").active).toBe(true);
  });

  it("installs nothing when installed() throws; logs faults of registered() and removed()", () => {
    const errors: string[] = [];
    server = createServer({ name: "x", version: "1" }, { logger: { warn() {}, error: (m) => void errors.push(m) } });
    const refuse = () => {
      throw new TypeError("com.example/picky: remove tool t first");
    };
    server.tool({ name: "t", inputSchema: OBJECT }, () => "");
    expect(() => server.use({ id: "com.example/picky", installed: refuse, registering: refuse })).toThrow("remove tool t first");
    server.tool({ name: "u", inputSchema: OBJECT }, () => ""); // the refused extension's registering() is not in use
    server.use({ id: "com.example/picky" }); // nor its id
    server.use({ id: "com.example/faulty", registered: refuse, removed: refuse });
    server.tool({ name: "v", inputSchema: OBJECT }, () => "");
    expect(server.removeTool("v")).toBe(true);
    expect(errors).toEqual([
      'Extension "com.example/faulty" threw in registered() for tools entry; ignored',
      'Extension "com.example/faulty" threw in removed() for tools entry; ignored',
    ]);
  });

  it("invalidate(kind) re-decorates every session's list and sends one list_changed", async () => {
    server = createServer({ name: "x", version: "1" });
    let suffix = "1";
    let host: ExtensionHost | undefined;
    server.use({ id: "com.example/label", installed: (h) => void (host = h), decorate: { tools: (tool) => ({ ...tool, title: `v${suffix}` }) } });
    server.tool({ name: "t", inputSchema: OBJECT }, () => "");
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    const titles = async (id: number) => ((await raw.call(id, "tools/list")) as JsonRpcSuccess).result as ListToolsResult;
    expect((await titles(1)).tools[0]?.title).toBe("v1");
    suffix = "2";
    expect((await titles(2)).tools[0]?.title).toBe("v1"); // cached until the extension says otherwise
    (host as ExtensionHost).invalidate("tools");
    await raw.next((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/tools/list_changed");
    expect((await titles(3)).tools[0]?.title).toBe("v2");
    // @ts-expect-error not a list kind
    expect(() => (host as ExtensionHost).invalidate("tool")).toThrow(/kind must be one of tools, resources, resourceTemplates, prompts/);
  });
});
