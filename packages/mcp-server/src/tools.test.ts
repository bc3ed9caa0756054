import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ExchangeInfo } from "@proto/jsonrpc";
import { ProtocolError } from "./protocol-error";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, connectSdkClient, initializeRaw } from "./test-helpers";
import { TOOL_ERROR_META_KEY } from "./tool-call";

let server: Server;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await server?.close();
});
const obj = { type: "object" } as const;

async function connect(s: Server, info?: ExchangeInfo): Promise<Client> {
  ({ client } = await connectSdkClient(s, info === undefined ? {} : { info }));
  return client as Client;
}

describe("tools/list", () => {
  it("paginates with opaque cursors and keeps registration order", async () => {
    server = createServer({ name: "p", version: "1" }, { pageSize: 2 });
    for (let i = 0; i < 5; i++) server.tool({ name: `t${i}`, inputSchema: obj }, () => "x");
    const c = await connect(server);
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await c.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(names).toEqual(["t0", "t1", "t2", "t3", "t4"]);
    expect(pages).toBe(3);
    await expect(c.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({ code: -32602 });
  });

  it("advertises descriptors as given, with $schema, $defs and additionalProperties kept", async () => {
    server = createServer({ name: "p", version: "1" });
    const inputSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { id: { type: "string" } },
      properties: { id: { $ref: "#/$defs/id" } },
      additionalProperties: false,
    } as const;
    server.tool({ name: "get", title: "Get", description: "Gets", inputSchema, annotations: { readOnlyHint: true, writes: false }, icons: [{ src: "https://x/i.png" }], _meta: { "com.example/k": 1 } }, () => "x");
    // Raw client: the SDK client drops annotation keys it does not know (such as `writes`).
    const raw = await connectRaw(server);
    await initializeRaw(raw);
    const response = (await raw.call(1, "tools/list")) as { result: { tools: unknown[] } };
    const [tool] = response.result.tools;
    expect(tool).toEqual({ name: "get", title: "Get", description: "Gets", inputSchema, annotations: { readOnlyHint: true, writes: false }, icons: [{ src: "https://x/i.png" }], _meta: { "com.example/k": 1 } });
  });

  it("sends one coalesced list_changed for a burst of changes", async () => {
    server = createServer({ name: "p", version: "1" });
    server.tool({ name: "a", inputSchema: obj }, () => "x");
    const c = await connect(server);
    let count = 0;
    let first!: () => void;
    const arrived = new Promise<void>((resolve) => (first = resolve));
    c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      count++;
      first();
    });
    server.tool({ name: "b", inputSchema: obj }, () => "x");
    server.tool({ name: "c", inputSchema: obj }, () => "x");
    server.removeTool("a");
    await arrived;
    await c.ping();
    expect(count).toBe(1);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["b", "c"]);
  });
});

describe("what is not served is refused exactly like an unknown tool", () => {
  it("hidden, other-surface and disabled tools", async () => {
    server = createServer({ name: "h", version: "1" });
    let ran = 0;
    server.tool({ name: "secret", hidden: true, inputSchema: obj }, () => void ran++);
    server.tool({ name: "serve", surfaces: ["cli"], inputSchema: obj }, () => void ran++);
    const off = server.tool({ name: "off", enabled: false, inputSchema: obj }, () => void ran++);
    server.tool({ name: "open", inputSchema: obj }, () => "ok");
    const c = await connect(server);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["open"]);
    const unknown = await c.callTool({ name: "nosuch" }).catch((e: unknown) => e);
    for (const name of ["secret", "serve", "off"]) {
      const error = await c.callTool({ name }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: -32602 });
      expect(String((error as Error).message).replace(name, "X")).toBe(String((unknown as Error).message).replace("nosuch", "X"));
    }
    expect(ran).toBe(0);
    off.enable();
    expect(off.active).toBe(true);
    expect((await c.callTool({ name: "off" })).isError).toBeUndefined();
    expect(server.summary().tools).toEqual(["off", "open"]);
  });
});

describe("lazy tools", () => {
  it("lists the tool without loading its module, loads it on the first call only", async () => {
    server = createServer({ name: "l", version: "1" });
    const g = globalThis as { __protoLazyToolLoads?: number };
    let loads = 0;
    server.tool({
      name: "deploy",
      inputSchema: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
      load: () => {
        loads++;
        return import("./lazy-tool.fixture").then((m) => m.deploy);
      },
    });
    const c = await connect(server);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["deploy"]);
    expect(g.__protoLazyToolLoads).toBeUndefined();
    expect((await c.callTool({ name: "deploy", arguments: { target: 5 } })).isError).toBe(true);
    expect(loads).toBe(0);
    expect(await c.callTool({ name: "deploy", arguments: { target: "prod" } })).toEqual({ content: [{ type: "text", text: "deployed to prod" }] });
    await c.callTool({ name: "deploy", arguments: { target: "dev" } });
    expect(loads).toBe(1);
    expect(g.__protoLazyToolLoads).toBe(1);
  });

  it("retries a failed load on the next call", async () => {
    server = createServer({ name: "l", version: "1" });
    let attempt = 0;
    server.tool({ name: "flaky", inputSchema: obj, load: async () => {
      if (attempt++ === 0) throw new Error("disk not ready");
      return () => "loaded";
    } });
    const c = await connect(server);
    expect(await c.callTool({ name: "flaky" })).toMatchObject({ isError: true, content: [{ text: "disk not ready" }] });
    expect(await c.callTool({ name: "flaky" })).toEqual({ content: [{ type: "text", text: "loaded" }] });
  });
});

describe("results", () => {
  it("maps strings, objects, arrays, numbers, booleans, nothing and full results", async () => {
    server = createServer({ name: "r", version: "1" });
    const values: Record<string, unknown> = {
      str: "hello", obj: { a: 1 }, arr: [1, 2], num: 3, bool: false, none: undefined,
      full: { content: [{ type: "text", text: "raw" }], isError: false },
    };
    for (const [name, value] of Object.entries(values)) server.tool({ name, inputSchema: obj }, () => value);
    const c = await connect(server);
    expect(await c.callTool({ name: "str" })).toEqual({ content: [{ type: "text", text: "hello" }] });
    expect(await c.callTool({ name: "obj" })).toEqual({ content: [{ type: "text", text: '{"a":1}' }], structuredContent: { a: 1 } });
    expect(await c.callTool({ name: "arr" })).toEqual({ content: [{ type: "text", text: "[1,2]" }], structuredContent: { result: [1, 2] } });
    expect(await c.callTool({ name: "num" })).toEqual({ content: [{ type: "text", text: "3" }], structuredContent: { result: 3 } });
    expect(await c.callTool({ name: "bool" })).toEqual({ content: [{ type: "text", text: "false" }], structuredContent: { result: false } });
    expect(await c.callTool({ name: "none" })).toEqual({ content: [] });
    expect(await c.callTool({ name: "full" })).toEqual({ content: [{ type: "text", text: "raw" }], isError: false });
  });

  it("turns a thrown error into isError with its message and no stack; a ProtocolError stays a protocol error", async () => {
    server = createServer({ name: "r", version: "1" });
    server.tool({ name: "boom", inputSchema: obj }, () => {
      throw new Error("database unreachable");
    });
    server.tool({ name: "proto", inputSchema: obj }, () => {
      throw new ProtocolError(-32042, "needs auth", { elicitations: [] });
    });
    server.tool({ name: "big", inputSchema: obj }, () => ({ n: 10n }));
    const c = await connect(server);
    const result = await c.callTool({ name: "boom" });
    expect(result).toEqual({ content: [{ type: "text", text: "database unreachable" }], isError: true });
    await expect(c.callTool({ name: "proto" })).rejects.toMatchObject({ code: -32042 });
    expect(await c.callTool({ name: "big" })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/cannot be serialised/) }] });
  });

  it("checks structured content against the output schema", async () => {
    server = createServer({ name: "o", version: "1" });
    const outputSchema = { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] } as const;
    server.tool({ name: "good", inputSchema: obj, outputSchema }, () => ({ sum: 1 }));
    // @ts-expect-error the handler's return type is checked against the output schema
    server.tool({ name: "bad", inputSchema: obj, outputSchema }, () => ({ total: "x" }));
    server.tool({ name: "text", inputSchema: obj, outputSchema }, () => ({ content: [{ type: "text" as const, text: "no data" }] }));
    server.tool({ name: "list", inputSchema: obj, outputSchema: { type: "array", items: { type: "string" } } }, () => ["a"]);
    const c = await connect(server);
    const tools = (await c.listTools()).tools;
    expect(tools.find((t) => t.name === "list")?.outputSchema).toEqual({ type: "object", properties: { result: { type: "array", items: { type: "string" } } }, required: ["result"] });
    expect(await c.callTool({ name: "good" })).toMatchObject({ structuredContent: { sum: 1 } });
    expect(await c.callTool({ name: "list" })).toMatchObject({ structuredContent: { result: ["a"] } });
    const bad = await c.callTool({ name: "bad" });
    expect(bad).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/does not match its output schema/) }] });
    expect((bad._meta as Record<string, { code: string }>)[TOOL_ERROR_META_KEY]?.code).toBe("invalid_output");
    expect(await c.callTool({ name: "text" })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/no structured content/) }] });
  });
});

describe("scopes", () => {
  const principal = (scopes: string[]) => ({ transport: "memory", principal: { subject: "u1", scopes, claims: {} } });
  function make(options: Parameters<typeof createServer>[1] = {}): Server {
    server = createServer({ name: "s", version: "1" }, options);
    server.tool({ name: "write", scopes: ["books.write"], annotations: { writes: true }, inputSchema: obj }, () => "written");
    server.tool({ name: "read", inputSchema: obj }, () => "read");
    return server;
  }

  it("refuses a principal that lacks a scope, serves one that has it", async () => {
    const c = await connect(make(), principal(["books.read"]));
    await expect(c.callTool({ name: "write" })).rejects.toMatchObject({ code: -32600, data: { error: "insufficient_scope", required: ["books.write"], granted: ["books.read"] } });
    expect(await c.callTool({ name: "read" })).toMatchObject({ content: [{ text: "read" }] });
    await c.close();
    const ok = await connect(server, principal(["books.read", "books.write"]));
    expect(await ok.callTool({ name: "write" })).toMatchObject({ content: [{ text: "written" }] });
  });

  it("refuses unauthenticated callers unless told to allow them", async () => {
    const c = await connect(make());
    await expect(c.callTool({ name: "write" })).rejects.toMatchObject({ code: -32600 });
    await c.close();
    await server.close();
    const open = await connect(make({ unauthenticatedScopes: "allow" }));
    expect(await open.callTool({ name: "write" })).toMatchObject({ content: [{ text: "written" }] });
  });

  it("scopesFor tells an HTTP layer what a call needs", () => {
    make();
    const req = (name: unknown) => ({ jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name } as { name: string } });
    expect(server.scopesFor(req("write"))).toEqual(["books.write"]);
    expect(server.scopesFor(req("read"))).toBeUndefined();
    expect(server.scopesFor(req(5))).toBeUndefined();
    expect(server.scopesFor({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toBeUndefined();
  });
});

describe("registration errors say what to do", () => {
  it("bad names, duplicates, bad schemas and unsupported dialects", () => {
    server = createServer({ name: "e", version: "1" });
    expect(() => server.tool({ name: "has space", inputSchema: obj }, () => "")).toThrow(/name "has space" must be 1-128 characters/);
    server.tool({ name: "x", inputSchema: obj }, () => "");
    expect(() => server.tool({ name: "x", inputSchema: obj }, () => "")).toThrow(/already registered/);
    // @ts-expect-error inputSchema must be an object schema
    expect(() => server.tool({ name: "y", inputSchema: { type: "string" } }, () => "")).toThrow(/type "object"/);
    expect(() => server.tool({ name: "w", inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object" } }, () => "")).toThrow(/unsupported "\$schema"/);
    expect(() => server.tool({ name: "v", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "integer" } } } }, () => "")).not.toThrow();
  });
});

describe("schemas ajv cannot compile (compiled on first call, not at registration)", () => {
  // Well-formed keyword by keyword (so registration accepts it), but the reference resolves to nothing.
  const bad = { type: "object", properties: { a: { $ref: "#/$defs/missing" } } } as const;

  function withLog(): string[] {
    const logged: string[] = [];
    server = createServer({ name: "e", version: "1" }, { logger: { warn: (m) => void logged.push(`warn ${m}`), error: (m) => void logged.push(`error ${m}`) } });
    return logged;
  }

  it("ready() rejects with a TypeError naming the tool and the schema", async () => {
    withLog();
    server.tool({ name: "ok", inputSchema: obj }, () => "");
    await expect(server.ready()).resolves.toBeUndefined();
    server.tool({ name: "z", inputSchema: bad }, () => "");
    const error: unknown = await server.ready().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/tool\("z"\) inputSchema: invalid JSON Schema/);
    server.tool({ name: "out", inputSchema: obj, outputSchema: { type: "object", properties: { r: { $ref: "#/nowhere" } } } as never }, () => ({}) as never);
    server.removeTool("z");
    await expect(server.ready()).rejects.toThrow(/tool\("out"\) outputSchema: invalid JSON Schema/);
  });

  it("a call answers -32603 naming the tool, never runs the handler, and the error is logged once", async () => {
    const logged = withLog();
    let ran = 0;
    server.tool({ name: "z", inputSchema: bad }, () => void ran++);
    server.tool({ name: "good", inputSchema: { type: "object", properties: { n: { type: "integer" } } } }, ({ n }) => `n=${String(n)}`);
    const c = await connect(server);
    expect((await c.listTools()).tools.map((t) => t.name)).toEqual(["z", "good"]);
    for (let i = 0; i < 2; i++) {
      await expect(c.callTool({ name: "z", arguments: { a: 1 } })).rejects.toMatchObject({
        code: -32603,
        message: expect.stringMatching(/Tool "z" cannot be called: tool\("z"\) inputSchema: invalid JSON Schema.*fault of the server's tool definition/),
      });
    }
    expect(ran).toBe(0);
    expect(logged.filter((m) => m.includes('tool("z") inputSchema: invalid JSON Schema'))).toHaveLength(1);
    expect(await c.callTool({ name: "good", arguments: { n: "3" } })).toEqual({ content: [{ type: "text", text: "n=3" }] });
    expect((await c.callTool({ name: "good", arguments: { n: "x" } })).isError).toBe(true);
  });

  it("concurrent first calls compile once and all validate before the handler", async () => {
    withLog();
    const seen: unknown[] = [];
    server.tool({ name: "t", inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, ({ n }) => void seen.push(n));
    const c = await connect(server);
    const results = await Promise.all([c.callTool({ name: "t", arguments: { n: 1 } }), c.callTool({ name: "t", arguments: { n: "no" } }), c.callTool({ name: "t", arguments: {} })]);
    expect(results.map((r) => r.isError === true)).toEqual([false, true, true]);
    expect(seen).toEqual([1]);
  });
});
