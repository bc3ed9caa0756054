import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError, type RequestHandler, type Transport } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { createEraMemory } from "./era";
import { ClientFaultCode, McpClientError } from "./errors";
import { discover } from "./fixtures/modern-discover";
import { createScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(options: Partial<ClientOptions> = {}): Client {
  const c = createClient({ info: { name: "t", version: "1" }, reconnect: { retries: 0 }, ...options });
  clients.push(c);
  return c;
}

const metaVersion = (params: unknown): unknown => (params as { _meta?: Record<string, unknown> })._meta?.["io.modelcontextprotocol/protocolVersion"];

describe("era probe verdicts", () => {
  it("a DiscoverResult naming 2026-07-28 gives the stateless wire: no initialize, the envelope on every request", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": () => ({ resultType: "complete", tools: [], ttlMs: 0, cacheScope: "public" }) } });
    const c = client();
    const details = await c.connect(server.transport);
    expect(details).toMatchObject({ protocolVersion: "2026-07-28", info: { name: "modern", version: "2" }, supportedVersions: ["2026-07-28"] });
    await c.listTools();
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "tools/list"]);
    expect(server.notifications).toEqual([]);
    expect((server.received[1]?.params as { _meta: unknown })._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
    });
  });

  it("declares capabilities from the handlers given, roots without listChanged, and sends logLevel once set", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": () => ({ ...(discover(undefined, undefined as never) as object), capabilities: { tools: {}, logging: {} } }), "tools/list": () => ({ tools: [] }) } });
    const c = client({ roots: [], elicitation: { form: () => ({ action: "decline" }), url: () => ({ action: "decline" }) }, sampling: { tools: true, createMessage: () => ({ role: "assistant", content: { type: "text", text: "" }, model: "m" }) } });
    await c.connect(server.transport);
    await c.setLoggingLevel("warning");
    await c.listTools();
    const meta = (server.received.at(-1)?.params as { _meta: Record<string, unknown> })._meta;
    expect(meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({ roots: {}, sampling: { tools: {} }, elicitation: { form: {}, url: {} } });
    expect(meta["io.modelcontextprotocol/logLevel"]).toBe("warning");
    expect(server.received.map((r) => r.method)).not.toContain("logging/setLevel");
  });

  it("puts a log level set after earlier requests in the next envelope, and merges request meta over the envelope", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": () => ({ ...(discover(undefined, undefined as never) as object), capabilities: { tools: {}, logging: {} } }), "tools/list": () => ({ tools: [] }) } });
    const c = client();
    await c.connect(server.transport);
    await c.listTools();
    await c.setLoggingLevel("error");
    await c.listTools(undefined, { meta: { "example.com/trace": "t1" } });
    await c.listTools();
    const metas = server.received.filter((r) => r.method === "tools/list").map((r) => (r.params as { _meta: Record<string, unknown> })._meta);
    expect(metas[0]).not.toHaveProperty(["io.modelcontextprotocol/logLevel"]);
    expect(metas[1]).toMatchObject({ "io.modelcontextprotocol/logLevel": "error", "io.modelcontextprotocol/protocolVersion": "2026-07-28", "example.com/trace": "t1" });
    expect(metas[2]).toHaveProperty(["io.modelcontextprotocol/logLevel"], "error");
    expect(metas[2]).not.toHaveProperty(["example.com/trace"]);
  });

  it("-32022 naming 2026-07-28 retries discover once, then speaks it", async () => {
    let first = true;
    const server = await createScriptedServer({
      handlers: {
        "server/discover": (params, ctx) => {
          if (first) {
            first = false;
            throw new JsonRpcError(-32022, "Unsupported protocol version", { supported: ["2026-07-28"], requested: metaVersion(params) });
          }
          return discover(params, ctx);
        },
      },
    });
    const details = await client().connect(server.transport);
    expect(details.protocolVersion).toBe("2026-07-28");
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "server/discover"]);
  });

  it("a second -32022 fails the connect and never falls back to initialize", async () => {
    const server = await createScriptedServer({
      handlers: { "server/discover": (params) => { throw new JsonRpcError(-32022, "no", { supported: ["2026-07-28"], requested: metaVersion(params) }); } },
    });
    const error = await client().connect(server.transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "server/discover"]);
  });

  for (const [label, handler] of [
    ["-32601", () => { throw new JsonRpcError(-32601, "Method not found"); }],
    ["-32602", () => { throw new JsonRpcError(-32602, "Invalid params"); }],
    ["-32000 (before initialize)", () => { throw new JsonRpcError(-32000, "Not initialized"); }],
  ] as const) {
    it(`${label} falls back to initialize`, async () => {
      const server = await createScriptedServer({ handlers: { "server/discover": handler } });
      const details = await client().connect(server.transport);
      expect(details.protocolVersion).toBe("2025-11-25");
      expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize"]);
    });
  }

  for (const [label, answer] of [
    ["an empty object", {}],
    ["null", null],
    ["supportedVersions as a string", { supportedVersions: "2026-07-28", capabilities: {} }],
    ["no capabilities", { supportedVersions: ["2026-07-28"] }],
    ["an input_required result", { resultType: "input_required", requestState: "x" }],
  ] as const) {
    it(`a discover answer that is not a DiscoverResult (${label}) falls back to initialize under "auto", and fails a pinned 2026-07-28`, async () => {
      const server = await createScriptedServer({ handlers: { "server/discover": () => answer } });
      const details = await client().connect(server.transport);
      expect(details.protocolVersion).toBe("2025-11-25");
      expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize"]);
      const pinned = await createScriptedServer({ handlers: { "server/discover": () => answer } });
      const error = await client({ protocol: "2026-07-28" }).connect(pinned.transport).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpClientError);
      expect(pinned.received.map((r) => r.method)).toEqual(["server/discover"]);
    });
  }

  it("a server that answers nothing falls back to initialize after the probe timeout", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": () => new Promise(() => {}) } });
    const details = await client({ probe: { timeoutMs: 30 } }).connect(server.transport);
    expect(details.protocolVersion).toBe("2025-11-25");
  });

  it("a slow modern-only server (a cold start past the probe timeout) that refuses initialize is probed again and reached", async () => {
    let discovers = 0;
    const server = await createScriptedServer({ handlers: {
      // The first discover is answered late (the process was still starting); the server then answers at once.
      "server/discover": async (params, ctx) => (++discovers === 1 ? new Promise((resolve) => setTimeout(() => resolve(discover(params, ctx)), 100)) : discover(params, ctx)),
      initialize: () => { throw new JsonRpcError(-32601, "Method not found: initialize"); },
    } });
    const details = await client({ probe: { timeoutMs: 30 } }).connect(server.transport);
    expect(details.protocolVersion).toBe("2026-07-28");
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize", "server/discover"]);
  });

  it("an HTTP 400 without a modern error body falls back to initialize; a 500 fails the attempt", async () => {
    for (const [status, legacy] of [[400, true], [404, true], [405, true], [500, false]] as const) {
      const server = await createScriptedServer();
      const refusing: Transport = {
        start: (sink) => server.transport.start(sink),
        close: (reason) => server.transport.close(reason),
        send: (payload) => (JSON.stringify(payload).includes("server/discover") ? Promise.reject(Object.assign(new Error(`answered ${status}`), { status })) : server.transport.send(payload)),
      };
      const outcome = await client().connect(refusing).catch((e: unknown) => e);
      if (legacy) expect(outcome).toMatchObject({ protocolVersion: "2025-11-25" });
      else expect(outcome).toBeInstanceOf(McpClientError);
    }
  });

  it('protocol: "2026-07-28" refuses a legacy server instead of initializing', async () => {
    const server = await createScriptedServer();
    const error = await client({ protocol: "2026-07-28" }).connect(server.transport).catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.UnsupportedVersion);
    expect(server.received.map((r) => r.method)).toEqual([]);
  });

  it('protocol: "2026-07-28" waits for a slow server/discover up to connectTimeoutMs, not the probe timeout', async () => {
    const slow: RequestHandler = (params, ctx) => new Promise((resolve) => setTimeout(() => resolve(discover(params, ctx)), 100));
    const server = await createScriptedServer({ handlers: { "server/discover": slow } });
    const details = await client({ protocol: "2026-07-28", probe: { timeoutMs: 10 }, connectTimeoutMs: 30_000 }).connect(server.transport);
    expect(details.protocolVersion).toBe("2026-07-28");
    expect(server.received.map((r) => r.method)).toEqual(["server/discover"]);
  });

  it('protocol: "2025-11-25" never probes', async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": discover } });
    await client({ protocol: "2025-11-25" }).connect(server.transport);
    expect(server.received.map((r) => r.method)).toEqual(["initialize"]);
  });
});

describe("verdict memory", () => {
  it("a server that closes the pipe on the probe is remembered as legacy; the reconnect initializes at once", async () => {
    const servers: Awaited<ReturnType<typeof createScriptedServer>>[] = [];
    const factory = async (): Promise<Transport> => {
      const server = await createScriptedServer({ handlers: { "server/discover": async () => { await server.kill(); return new Promise(() => {}); } } });
      servers.push(server);
      return server.transport;
    };
    const c = client({ transport: factory, reconnect: { retries: 1, initialDelayMs: 1 } });
    const details = await c.connect();
    expect(details.protocolVersion).toBe("2025-11-25");
    expect(servers).toHaveLength(2);
    expect(servers[1]?.received.map((r) => r.method)).toEqual(["initialize"]);
  });

  it("clients sharing a serverKey share the verdict; a verdict that fails is forgotten and the server probed again", async () => {
    const eraMemory = createEraMemory();
    const legacy = await createScriptedServer();
    await client({ serverKey: "cmd a", eraMemory }).connect(legacy.transport);
    expect(eraMemory.get("cmd a")).toEqual({ era: "legacy" });
    const again = await createScriptedServer();
    await client({ serverKey: "cmd a", eraMemory }).connect(again.transport);
    expect(again.received.map((r) => r.method)).toEqual(["initialize"]);
    // The server was upgraded to modern-only: initialize fails, the server is probed again on the same connection.
    const upgraded = await createScriptedServer({ handlers: { initialize: () => { throw new JsonRpcError(-32022, "modern only", { supported: ["2026-07-28"], requested: "2025-11-25" }); }, "server/discover": discover } });
    expect((await client({ serverKey: "cmd a", eraMemory }).connect(upgraded.transport)).protocolVersion).toBe("2026-07-28");
    expect(upgraded.received.map((r) => r.method)).toEqual(["initialize", "server/discover"]);
    expect(eraMemory.get("cmd a")).toEqual({ era: "modern", version: "2026-07-28" });
    // A server that refuses initialize and is no modern one either: the attempt fails with initialize's error, the verdict goes.
    eraMemory.set("cmd a", { era: "legacy" });
    const broken = await createScriptedServer({ handlers: { initialize: () => { throw new JsonRpcError(-32603, "broken"); }, "server/discover": () => { throw new JsonRpcError(-32601, "Method not found"); } } });
    await expect(client({ serverKey: "cmd a", eraMemory }).connect(broken.transport)).rejects.toThrow(/broken/);
    expect(broken.received.map((r) => r.method)).toEqual(["initialize", "server/discover"]);
    expect(eraMemory.get("cmd a")).toBeUndefined();
  });
});
