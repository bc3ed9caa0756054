import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createApps } from "./apps";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { createWeather, DASHBOARD_URI } from "./weather.fixture";

const DOC = "<!doctype html><html><body>hi</body></html>";
const servers: Server[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function logs() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (m: string) => void warnings.push(m), error: (m: string) => void warnings.push(`error: ${m}`) } };
}

function make(options: Parameters<typeof createApps>[1] = {}) {
  const server = createServer({ name: "t", version: "1" }, options.logger === undefined ? {} : { logger: options.logger });
  servers.push(server);
  return { server, apps: createApps(server, options) };
}

/**
 * Behaviour of the initialize era that 2026-07-28 changed (list_changed and resources/updated
 * notifications to a session, -32002 for an unknown resource, per-session hooks): those tests
 * pin 2025-11-25; the rest run with the client's default (2026-07-28 against this server).
 */
const SESSION_ERA = "2025-11-25";

async function connect(server: Server, ui = true, protocol?: "2025-11-25"): Promise<Client> {
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = createClient({ info: { name: "host", version: "1" }, ...(protocol === undefined ? {} : { protocol }), ...(ui ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {}) });
  clients.push(client);
  await client.connect(a);
  return client;
}

describe("apps.resource", () => {
  it("refuses other schemes, other MIME types, _meta.ui, bad metadata and duplicates, saying what to do", () => {
    const { apps } = make();
    expect(() => apps.resource({ uri: "https://x/y", name: "x" }, DOC)).toThrow(/must start with ui:\/\//);
    expect(() => apps.resource({ uri: "UI://x/y", name: "x" }, DOC)).toThrow(/ui:\/\/ \(lowercase\)/);
    expect(() => apps.resource({ uri: "ui://x/ y", name: "x" }, DOC)).toThrow(/no spaces/);
    // @ts-expect-error the MIME type is fixed
    expect(() => apps.resource({ uri: "ui://x/y", name: "x", mimeType: "text/html" }, DOC)).toThrow(/exactly "text\/html;profile=mcp-app"/);
    expect(() => apps.resource({ uri: "ui://x/y", name: "x", _meta: { ui: {} } }, DOC)).toThrow(/pass the view's metadata as ui:/);
    expect(() => apps.resource({ uri: "ui://x/y", name: "x", ui: { csp: { connectDomains: ["*"] } } }, DOC)).toThrow(/"\*" allows any origin/);
    // @ts-expect-error a misspelt key
    expect(() => apps.resource({ uri: "ui://x/y", name: "x", ui: { csp: { connect_domains: [] } } }, DOC)).toThrow(/csp\.connect_domains is not defined/);
    // @ts-expect-error permissions are {}
    expect(() => apps.resource({ uri: "ui://x/y", name: "x", ui: { permissions: { camera: true } } }, DOC)).toThrow(/permissions\.camera must be \{\}/);
    // @ts-expect-error the reader is a function, a string or bytes
    expect(() => apps.resource({ uri: "ui://x/y", name: "x" }, 42)).toThrow(/reader function/);
    apps.resource({ uri: "ui://x/y", name: "x" }, DOC);
    expect(() => apps.resource({ uri: "ui://x/y", name: "again" }, DOC)).toThrow(/already registered/);
  });

  it("serialises metadata canonically: fixed key order, sorted and de-duplicated origins, empty lists left out", async () => {
    const { server, apps } = make();
    apps.resource(
      {
        uri: "ui://x/view",
        name: "view",
        _meta: { "com.example/owner": "team" },
        ui: {
          prefersBorder: false,
          domain: "abc.example.com",
          permissions: { clipboardWrite: {}, camera: {} },
          csp: { frameDomains: [], resourceDomains: ["https://b.example", "https://a.example", "https://b.example"], connectDomains: ["wss://live.example:8443"] },
        },
      },
      DOC,
    );
    const client = await connect(server);
    const ui = {
      csp: { connectDomains: ["wss://live.example:8443"], resourceDomains: ["https://a.example", "https://b.example"] },
      permissions: { camera: {}, clipboardWrite: {} },
      domain: "abc.example.com",
      prefersBorder: false,
    };
    const [entry] = await client.listAllResources();
    expect(JSON.stringify(entry?._meta)).toBe(JSON.stringify({ "com.example/owner": "team", ui }));
    const read = await client.readResource("ui://x/view");
    expect(JSON.stringify(read.contents)).toBe(JSON.stringify([{ uri: "ui://x/view", mimeType: UI_MIME_TYPE, _meta: { ui }, text: DOC }]));
  });

  it("serves bytes as a deterministic base64 blob, a reader's undefined as not found, and warns once about a non-document", async () => {
    const { warnings, logger } = logs();
    const { server, apps } = make({ logger });
    const bytes = new TextEncoder().encode(DOC);
    apps.resource({ uri: "ui://x/bytes", name: "b" }, bytes);
    apps.resource({ uri: "ui://x/buffer", name: "b" }, () => bytes.buffer.slice(0));
    apps.resource({ uri: "ui://x/gone", name: "g" }, () => undefined);
    apps.resource({ uri: "ui://x/fragment", name: "f" }, () => "<div></div>");
    // @ts-expect-error a reader must return text or bytes
    apps.resource({ uri: "ui://x/number", name: "n" }, () => 7);
    const client = await connect(server, true, SESSION_ERA);
    const blob = btoa(DOC);
    expect((await client.readResource("ui://x/bytes")).contents).toEqual([{ uri: "ui://x/bytes", mimeType: UI_MIME_TYPE, blob }]);
    expect((await client.readResource("ui://x/buffer")).contents).toEqual([{ uri: "ui://x/buffer", mimeType: UI_MIME_TYPE, blob }]);
    await expect(client.readResource("ui://x/gone")).rejects.toMatchObject({ code: -32002 });
    await expect(client.readResource("ui://x/number")).rejects.toMatchObject({ code: -32603 });
    await client.readResource("ui://x/fragment");
    await client.readResource("ui://x/fragment");
    expect(warnings.filter((w) => w.includes("ui://x/fragment"))).toEqual([expect.stringMatching(/does not start like an HTML document/)]);
  });

  it("reserves ui:// for views: server.resource() and server.resourceTemplate() refuse it at registration", async () => {
    const { server } = make();
    expect(() => server.resource({ uri: "ui://sneaky/view", name: "s", mimeType: UI_MIME_TYPE }, () => DOC)).toThrow(
      'resource("ui://sneaky/view"): ui:// is reserved for MCP Apps views; register it with apps.resource() from @proto/mcp-apps',
    );
    expect(() => server.resource({ uri: "UI://sneaky/view", name: "s" }, () => DOC)).toThrow(TypeError);
    expect(() => server.resourceTemplate({ uriTemplate: "ui://sneaky/{id}", name: "t" }, () => DOC)).toThrow(/ui:\/\/ is reserved for MCP Apps views, which are predeclared/);
    // A template of another scheme may still match or list ui:// URIs: those stay off the wire.
    server.resourceTemplate({ uriTemplate: "{+any}", name: "any", list: () => [{ uri: "ui://sneaky/listed", name: "l" }, { uri: "file:///ok.txt", name: "ok" }] }, () => DOC);
    const client = await connect(server, true, SESSION_ERA);
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["file:///ok.txt"]);
    await expect(client.readResource("ui://sneaky/1")).rejects.toMatchObject({ code: -32002, data: { code: "UI_NOT_REGISTERED", uri: "ui://sneaky/1" } });
  });

  it("refuses to install over ui:// resources, ui:// templates or malformed tool _meta.ui registered before it", () => {
    const fresh = () => {
      const server = createServer({ name: "t", version: "1" });
      servers.push(server);
      return server;
    };
    const a = fresh();
    a.resource({ uri: "ui://early/view", name: "v" }, () => DOC);
    expect(() => createApps(a)).toThrow('createApps(): registered before MCP Apps was installed: resource("ui://early/view"): ui:// is reserved for MCP Apps views');
    const b = fresh();
    b.resourceTemplate({ uriTemplate: "ui://early/{id}", name: "t" }, () => DOC);
    expect(() => createApps(b)).toThrow(/resourceTemplate\("ui:\/\/early\/\{id\}"\)/);
    const c = fresh();
    c.tool({ name: "bad", inputSchema: { type: "object" }, _meta: { ui: { visibility: [] } } }, () => "");
    expect(() => createApps(c)).toThrow(/tool\("bad"\): malformed _meta\.ui/);
    // Nothing was installed: the server still works without MCP Apps, and can get it once repaired.
    c.removeTool("bad");
    expect(createApps(c).checkLinks().ok).toBe(true);
  });

  it("handles remove through the handle, apps.removeResource and updates", async () => {
    const { server, apps } = make();
    const handle = apps.resource({ uri: "ui://x/a", name: "a" }, DOC);
    apps.resource({ uri: "ui://x/b", name: "b" }, DOC);
    const client = await connect(server, true, SESSION_ERA);
    handle.remove();
    expect(apps.removeResource("ui://x/b")).toBe(true);
    expect(apps.removeResource("ui://x/b")).toBe(false);
    expect(await client.listAllResources({ refresh: true })).toEqual([]);
    await expect(client.readResource("ui://x/a")).rejects.toMatchObject({ code: -32002 });
  });
});

describe("tool links", () => {
  it("apps.tool checks the link and refuses _meta.ui given by hand", () => {
    const { apps } = make();
    const base = { inputSchema: { type: "object" } } as const;
    expect(() => apps.tool({ ...base, name: "a", ui: { resourceUri: "https://x" } }, () => "")).toThrow(/resourceUri must be a ui:\/\/ URI/);
    // @ts-expect-error visibility values are "model" and "app"
    expect(() => apps.tool({ ...base, name: "b", ui: { resourceUri: "ui://x", visibility: ["user"] } }, () => "")).toThrow(/visibility must be a non-empty array/);
    expect(() => apps.tool({ ...base, name: "c", ui: { resourceUri: "ui://x", visibility: [] } }, () => "")).toThrow(/visibility/);
    expect(() => apps.tool({ ...base, name: "d", ui: {} }, () => "")).toThrow(/ui says nothing/);
    // @ts-expect-error CSP belongs on the resource
    expect(() => apps.tool({ ...base, name: "e", ui: { resourceUri: "ui://x", csp: {} } }, () => "")).toThrow(/CSP and permissions belong on the resource/);
    expect(() => apps.tool({ ...base, name: "f", _meta: { ui: {} }, ui: { resourceUri: "ui://x" } }, () => "")).toThrow(/not in _meta/);
    expect(apps.tool({ ...base, name: "g", ui: { visibility: ["app"] } }, () => "").name).toBe("g");
  });

  it("registers lazy linked tools, loading the handler on the first call", async () => {
    const { server, apps } = make();
    apps.resource({ uri: "ui://x/v", name: "v" }, DOC);
    let loads = 0;
    apps.tool({ name: "lazy", inputSchema: { type: "object" }, ui: { resourceUri: "ui://x/v" }, load: async () => (loads++, () => "loaded") });
    const client = await connect(server);
    expect((await client.listAllTools())[0]?._meta).toEqual({ ui: { resourceUri: "ui://x/v", visibility: ["model", "app"] } });
    expect(loads).toBe(0);
    expect(await client.callTool("lazy")).toMatchObject({ content: [{ type: "text", text: "loaded" }] });
    expect(loads).toBe(1);
  });

  it("decorates tools registered with server.tool(): nested form only, deprecated flat key converted", async () => {
    const { server, apps } = make();
    apps.resource({ uri: "ui://x/v", name: "v" }, DOC);
    server.tool({ name: "flat", inputSchema: { type: "object" }, _meta: { "ui/resourceUri": "ui://x/v", "com.example/k": 1 } }, () => "");
    server.tool({ name: "nested", inputSchema: { type: "object" }, _meta: { ui: { visibility: ["app", "model"], resourceUri: "ui://x/v" } } }, () => "");
    const ui = await connect(server);
    expect((await ui.listAllTools()).map((t) => t._meta)).toEqual([
      { "com.example/k": 1, ui: { resourceUri: "ui://x/v", visibility: ["model", "app"] } },
      { ui: { resourceUri: "ui://x/v", visibility: ["model", "app"] } },
    ]);
    const plain = await connect(server, false);
    expect((await plain.listAllTools()).map((t) => t._meta)).toEqual([{ "com.example/k": 1 }, undefined]);
    expect(apps.checkLinks()).toEqual({
      ok: true,
      problems: [],
      links: [
        { tool: "flat", resourceUri: "ui://x/v", visibility: ["model", "app"] },
        { tool: "nested", resourceUri: "ui://x/v", visibility: ["model", "app"] },
      ],
    });
  });

  it("refuses malformed _meta.ui on server.tool() at registration, visibility: [] included; tools/list stays served", async () => {
    const { server } = make();
    const base = { inputSchema: { type: "object" } } as const;
    expect(() => server.tool({ ...base, name: "empty", _meta: { ui: { resourceUri: "ui://x/v", visibility: [] } } }, () => "")).toThrow(
      'tool("empty"): malformed _meta.ui: visibility must be a non-empty array of "model" and/or "app". Fix it, or register the tool with apps.tool(',
    );
    expect(() => server.tool({ ...base, name: "uri", _meta: { ui: { resourceUri: 42 } } }, () => "")).toThrow(/tool\("uri"\): malformed _meta\.ui: resourceUri must be a ui:\/\/ URI/);
    expect(() => server.tool({ ...base, name: "flat", _meta: { "ui/resourceUri": "https://x" } }, () => "")).toThrow(/tool\("flat"\)/);
    expect(() => server.tool({ ...base, name: "lazy", hidden: true, _meta: { ui: "x" }, load: async () => () => "" })).toThrow(/tool\("lazy"\): malformed _meta\.ui: _meta\.ui must be an object/);
    server.tool({ ...base, name: "fine" }, () => "");
    const client = await connect(server);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["fine"]);
  });

  it("checks links of server.tool() tools from their registration, before any tools/list", () => {
    const { server, apps } = make();
    server.tool({ name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://x/missing" } } }, () => "");
    expect(apps.checkLinks()).toMatchObject({ ok: false, problems: [{ tool: "show", resourceUri: "ui://x/missing" }] });
    apps.resource({ uri: "ui://x/missing", name: "m" }, DOC);
    expect(apps.checkLinks().ok).toBe(true);
    // A view removed behind apps' back, with server.removeResource(), is seen too.
    expect(server.removeResource("ui://x/missing")).toBe(true);
    expect(apps.checkLinks().ok).toBe(false);
  });

  it("reports broken links when a session starts, once per distinct set, and in checkLinks()", async () => {
    const { warnings, logger } = logs();
    const { server, apps } = make({ logger });
    apps.tool({ name: "show", inputSchema: { type: "object" }, ui: { resourceUri: "ui://x/missing" } }, () => "");
    expect(apps.checkLinks()).toMatchObject({ ok: false, problems: [{ tool: "show", resourceUri: "ui://x/missing", repair: expect.stringMatching(/no view is registered yet/) }] });
    await connect(server, true, SESSION_ERA);
    await connect(server, false, SESSION_ERA);
    expect(warnings).toEqual([expect.stringMatching(/^MCP Apps: 1 tool link\(s\) cannot be served[\s\S]*tool "show" links to ui:\/\/x\/missing/)]);
    apps.resource({ uri: "ui://x/missing", name: "m" }, DOC);
    expect(apps.checkLinks().ok).toBe(true);
  });

  it("forgets removed tools and ignores disabled ones", async () => {
    const { server, apps } = make();
    server.tool({ name: "plain", inputSchema: { type: "object" } }, () => "");
    const handle = apps.tool({ name: "show", inputSchema: { type: "object" }, ui: { resourceUri: "ui://x/missing" } }, () => "");
    handle.disable();
    expect(apps.checkLinks().ok).toBe(true);
    handle.enable();
    expect(apps.checkLinks().ok).toBe(false);
    handle.remove();
    expect(apps.checkLinks()).toEqual({ ok: true, links: [], problems: [] });
    expect((await (await connect(server)).listAllTools()).map((t) => t.name)).toEqual(["plain"]);
  });
});

describe("createApps", () => {
  it("refuses a second install, bad options and non-servers", () => {
    const { server } = make();
    expect(() => createApps(server)).toThrow(/already has the io\.modelcontextprotocol\/ui extension/);
    // @ts-expect-error not a server
    expect(() => createApps({})).toThrow(/pass a server made by createServer/);
    // @ts-expect-error bad option
    expect(() => createApps(createServer({ name: "a", version: "1" }), { serve: "sometimes" })).toThrow(/serve must be/);
  });

  it("says which sessions are served", async () => {
    const { server, apps } = createWeather();
    servers.push(server);
    await connect(server, true, SESSION_ERA);
    await connect(server, false, SESSION_ERA);
    expect(server.sessions().map((s) => apps.isServed(s))).toEqual([true, false]);
    expect(DASHBOARD_URI).toBe("ui://weather/dashboard");
  });
});
