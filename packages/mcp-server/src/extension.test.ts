import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcSuccess } from "@proto/jsonrpc";
import type { InitializeResult, ListToolsResult, Tool } from "@proto/mcp-protocol";
import { createServer } from "./server";
import type { Server } from "./server-types";
import type { ServerExtension } from "./extension";
import { connectRaw, initializeRaw } from "./test-helpers";

const UI = "io.modelcontextprotocol/ui";
let server: Server;
afterEach(async () => {
  await server?.close();
});

/** A small MCP-Apps-like extension built only on the public hooks. */
function apps(): ServerExtension {
  return {
    id: UI,
    settings: (client) => (Array.isArray(client.mimeTypes) ? { mimeTypes: ["text/html;profile=mcp-app"] } : undefined),
    decorate: {
      tools: (tool, { settings }) => {
        const link = tool._meta?.["com.example/ui"];
        if (tool._meta?.["com.example/visibility"] === "app") return undefined;
        if (settings === undefined || typeof link !== "string") return tool;
        return { ...tool, _meta: { ...tool._meta, ui: { resourceUri: link } } };
      },
    },
    methods: { "ui/negotiated": (_params, ctx) => ({ negotiated: ctx.session.extension(UI) !== undefined }) },
    intercept: {
      "tools/call": async (params, ctx, next) => {
        const result = (await next()) as { content: unknown[] };
        return ctx.session.extension(UI) === undefined ? result : { ...result, _meta: { "com.example/wrapped": true } };
      },
    },
  };
}

function make(): Server {
  server = createServer({ name: "x", version: "1" });
  server.use(apps());
  server.tool({ name: "forecast", inputSchema: { type: "object" }, _meta: { "com.example/ui": "ui://weather/forecast" } }, () => "sunny");
  server.tool({ name: "refresh", inputSchema: { type: "object" }, _meta: { "com.example/visibility": "app" } }, () => "refreshed");
  return server;
}

async function session(s: Server, capabilities: Record<string, unknown>) {
  const client = await connectRaw(s);
  const init = (await initializeRaw(client, "2025-11-25", capabilities)) as JsonRpcSuccess;
  const list = (await client.call("l", "tools/list")) as JsonRpcSuccess;
  return { client, init: init.result as InitializeResult, tools: (list.result as ListToolsResult).tools as Tool[] };
}

describe("the extension API", () => {
  it("negotiates per session and decorates each session's list on its own", async () => {
    const s = make();
    const withUi = await session(s, { extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } } });
    const without = await session(s, {});
    const declined = await session(s, { extensions: { [UI]: { other: true } } });

    expect(withUi.init.capabilities.extensions).toEqual({ [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } });
    expect(without.init.capabilities.extensions).toBeUndefined();
    expect(declined.init.capabilities.extensions).toBeUndefined();
    expect(withUi.client.session.extension(UI)).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
    expect(without.client.session.extension(UI)).toBeUndefined();

    expect(withUi.tools).toEqual([{ name: "forecast", inputSchema: { type: "object" }, _meta: { "com.example/ui": "ui://weather/forecast", ui: { resourceUri: "ui://weather/forecast" } } }]);
    expect(without.tools).toEqual([{ name: "forecast", inputSchema: { type: "object" }, _meta: { "com.example/ui": "ui://weather/forecast" } }]);
  });

  it("adds methods and intercepts existing ones", async () => {
    const s = make();
    const withUi = await session(s, { extensions: { [UI]: { mimeTypes: [] } } });
    const without = await session(s, {});
    expect(await withUi.client.call(1, "ui/negotiated")).toMatchObject({ result: { negotiated: true } });
    expect(await without.client.call(1, "ui/negotiated")).toMatchObject({ result: { negotiated: false } });
    const call = { name: "refresh", arguments: {} };
    expect(await withUi.client.call(2, "tools/call", call)).toMatchObject({ result: { content: [{ text: "refreshed" }], _meta: { "com.example/wrapped": true } } });
    expect((await without.client.call(2, "tools/call", call)) as JsonRpcSuccess).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "refreshed" }] } });
  });

  it("lets an interceptor change params or refuse", async () => {
    server = createServer({ name: "x", version: "1" });
    server.tool({ name: "echo", inputSchema: { type: "object", properties: { t: { type: "string" } } } }, ({ t }) => t ?? "");
    server.use({ id: "com.example/upper", intercept: { "tools/call": (params, _ctx, next) => next({ ...(params as object), arguments: { t: "CHANGED" } }) } });
    server.use({ id: "com.example/deny", intercept: { "tools/list": () => { throw new Error("hidden detail"); } } });
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    expect(await raw.call(1, "tools/call", { name: "echo", arguments: { t: "a" } })).toMatchObject({ result: { content: [{ text: "CHANGED" }] } });
    expect(await raw.call(2, "tools/list")).toMatchObject({ error: { code: -32603, message: "Internal error" } });
  });

  it("refuses a second next() from one interceptor: the tool runs once", async () => {
    server = createServer({ name: "x", version: "1" });
    let runs = 0;
    server.tool({ name: "count", inputSchema: { type: "object" } }, () => String(++runs));
    let second: unknown;
    server.use({
      id: "com.example/twice",
      intercept: {
        "tools/call": async (params, _ctx, next) => {
          const first = await next();
          second = await next(params).catch((error: unknown) => error);
          return first;
        },
      },
    });
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    expect(await raw.call(1, "tools/call", { name: "count", arguments: {} })).toMatchObject({ result: { content: [{ text: "1" }] } });
    expect(runs).toBe(1);
    expect(second).toBeInstanceOf(TypeError);
    expect((second as Error).message).toMatch(/next\(\) twice/);
  });

  it("serves methods of an extension added after sessions connected; refuses duplicates", async () => {
    server = createServer({ name: "x", version: "1" });
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    server.use({ id: "com.example/late", methods: { "late/hello": () => "hi" } });
    expect(await raw.call(1, "late/hello")).toMatchObject({ result: "hi" });
    expect(() => server.use({ id: "com.example/late" })).toThrow(/already in use/);
    expect(() => server.use({ id: "com.example/other", methods: { "tools/list": () => 1 } })).toThrow(/already has a handler/);
    // @ts-expect-error an id is required
    expect(() => server.use({})).toThrow(TypeError);
  });

  it("lists an item undecorated when a decorator throws, and logs it", async () => {
    const errors: string[] = [];
    server = createServer({ name: "x", version: "1" }, { logger: { warn() {}, error: (m) => void errors.push(m) } });
    server.use({ id: "com.example/bad", decorate: { tools: () => { throw new Error("oops"); } } });
    server.tool({ name: "a", inputSchema: { type: "object" } }, () => "");
    const { tools } = await session(server, {});
    expect(tools.map((t) => t.name)).toEqual(["a"]);
    expect(errors[0]).toMatch(/com.example\/bad/);
  });
});
