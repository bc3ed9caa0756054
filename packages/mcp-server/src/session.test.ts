import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcFailure, JsonRpcPayload, JsonRpcSuccess } from "@proto/jsonrpc";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, initializeRaw } from "./test-helpers";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function make(): Server {
  server = createServer({ name: "s", version: "1", instructions: "hi" });
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => text ?? "");
  return server;
}

const isError = (r: unknown): r is JsonRpcFailure => typeof r === "object" && r !== null && "error" in r;

describe("lifecycle", () => {
  it("refuses requests before initialize, but answers ping and server/discover", async () => {
    const client = await connectRaw(make());
    const early = await client.call(1, "tools/list");
    expect(isError(early) && early.error.code).toBe(-32600);
    expect(isError(early) && early.error.message).toMatch(/initialize first/);
    expect(await client.call(2, "ping")).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    const discovered = (await client.call(3, "server/discover")) as JsonRpcSuccess;
    expect(discovered.result).toMatchObject({
      supportedVersions: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "s", version: "1" },
      instructions: "hi",
      resultType: "complete",
      cacheScope: "public",
      ttlMs: 0,
    });
  });

  it("negotiates each supported version and answers an unknown one with the latest", async () => {
    for (const [asked, answered] of [["2025-11-25", "2025-11-25"], ["2025-06-18", "2025-06-18"], ["2025-03-26", "2025-03-26"], ["2024-11-05", "2024-11-05"], ["2099-01-01", "2025-11-25"]]) {
      const client = await connectRaw(make());
      const response = (await initializeRaw(client, asked)) as JsonRpcSuccess;
      expect((response.result as { protocolVersion: string }).protocolVersion).toBe(answered);
      expect(client.session.protocolVersion).toBe(answered);
      await server.close();
    }
  });

  it("accepts an initialize without params (hand-typed requests)", async () => {
    const client = await connectRaw(make());
    const response = (await client.call(1, "initialize")) as JsonRpcSuccess;
    expect((response.result as { protocolVersion: string }).protocolVersion).toBe("2025-11-25");
  });

  it("refuses bad initialize params, a second initialize, and initialize in a batch", async () => {
    const client = await connectRaw(make());
    const bad = await client.call(1, "initialize", { protocolVersion: 5 });
    expect(isError(bad) && bad.error.code).toBe(-32602);
    await client.send([{ jsonrpc: "2.0", id: 2, method: "initialize", params: {} }]);
    const batch = (await client.next((p) => Array.isArray(p))) as JsonRpcFailure[];
    expect(batch[0]?.error.code).toBe(-32600);
    await initializeRaw(client);
    const again = await client.call(3, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } });
    expect(isError(again) && again.error.message).toMatch(/already initialized/);
  });

  it("answers -32022 with the stateless versions for a claim of any other version, even before initialize", async () => {
    const client = await connectRaw(make());
    const meta = { _meta: { "io.modelcontextprotocol/protocolVersion": "2025-11-25", "io.modelcontextprotocol/clientCapabilities": {} } };
    for (const [id, method] of [[1, "tools/list"], [2, "server/discover"]] as const) {
      const response = await client.call(id, method, meta);
      expect(isError(response) && response.error).toEqual({
        code: -32022,
        message: expect.stringContaining("2026-07-28"),
        data: { supported: ["2026-07-28"], requested: "2025-11-25" },
      });
    }
  });

  it("serves a request that carries the 2026-07-28 envelope without initialize", async () => {
    const client = await connectRaw(make());
    const response = (await client.call(1, "tools/call", {
      name: "echo",
      arguments: { text: "hi" },
      _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
    })) as JsonRpcSuccess;
    expect(response.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi" }] });
  });

  it("accepts batches only under 2025-03-26", async () => {
    for (const [version, ok] of [["2025-03-26", true], ["2025-11-25", false], ["2024-11-05", false]] as const) {
      const client = await connectRaw(make());
      await initializeRaw(client, version);
      await client.send([
        { jsonrpc: "2.0", id: 10, method: "tools/list" },
        { jsonrpc: "2.0", id: 11, method: "ping" },
      ]);
      const reply = (await client.next((p) => Array.isArray(p))) as (JsonRpcSuccess | JsonRpcFailure)[];
      const list = reply.find((r) => r.id === 10);
      expect(list !== undefined && !isError(list)).toBe(ok);
      if (!ok) expect(isError(list) && list.error.message).toMatch(/batches are not allowed under protocol version/);
      await server.close();
    }
  });

  it("serves a connect-initialized (stateless) session with the header's version", async () => {
    const s = make();
    const client = await connectRaw(s, { headers: { "mcp-protocol-version": "2025-06-18" } }, { initialized: {} });
    expect(client.session.initialized).toBe(true);
    await client.send([{ jsonrpc: "2.0", id: 1, method: "tools/list" }]);
    const reply = (await client.next((p) => Array.isArray(p))) as JsonRpcFailure[];
    expect(reply[0]?.error.message).toMatch(/2025-06-18/);
    const single = (await client.call(2, "tools/list")) as JsonRpcSuccess;
    expect((single.result as { tools: unknown[] }).tools).toHaveLength(1);
    // Stateless clients still send initialize first: it is answered.
    const init = (await initializeRaw(client, "2025-06-18")) as JsonRpcSuccess;
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-06-18");
  });

  it("ignores notifications before initialize and unknown methods get -32601", async () => {
    const client = await connectRaw(make());
    await client.send({ jsonrpc: "2.0", method: "notifications/roots/list_changed" });
    await initializeRaw(client);
    const response = await client.call(1, "no/such/method");
    expect(isError(response) && response.error.code).toBe(-32601);
  });
});

describe("cancellation and close", () => {
  it("aborts the handler's signal on notifications/cancelled and sends no response", async () => {
    server = createServer({ name: "s", version: "1" });
    let aborted!: (reason: unknown) => void;
    const abortedP = new Promise((resolve) => (aborted = resolve));
    let started!: () => void;
    const startedP = new Promise<void>((resolve) => (started = resolve));
    server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, ctx) => {
      started();
      return new Promise((resolve) => {
        ctx.signal.addEventListener("abort", () => {
          aborted(ctx.signal.reason);
          resolve("too late");
        });
      });
    });
    const client = await connectRaw(server);
    await initializeRaw(client);
    await client.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wait", arguments: {} } });
    // The first call compiles the tool's schema first (asynchronously): cancel once the handler runs.
    await startedP;
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "user" } });
    expect(String(await abortedP)).toMatch(/user/);
    expect(await client.call(8, "ping")).toMatchObject({ result: {} });
    expect(client.received.some((p: JsonRpcPayload) => !Array.isArray(p) && "id" in p && p.id === 7)).toBe(false);
  });

  it("never runs the handler of a call cancelled while its tool was still loading", async () => {
    server = createServer({ name: "s", version: "1" });
    let ran = false;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let loading!: () => void;
    const loadingP = new Promise<void>((resolve) => (loading = resolve));
    server.tool({
      name: "slow_load",
      inputSchema: { type: "object" },
      load: async () => {
        loading();
        await gate;
        return () => {
          ran = true;
          return "ran";
        };
      },
    });
    const client = await connectRaw(server);
    await initializeRaw(client);
    await client.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "slow_load", arguments: {} } });
    await loadingP;
    await client.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9, reason: "user" } });
    expect(await client.call(10, "ping")).toMatchObject({ result: {} });
    release();
    expect(await client.call(11, "ping")).toMatchObject({ result: {} });
    expect(ran).toBe(false);
    expect(client.received.some((p: JsonRpcPayload) => !Array.isArray(p) && "id" in p && p.id === 9)).toBe(false);
  });

  it("aborts running handlers when the session closes, and forgets the session", async () => {
    server = createServer({ name: "s", version: "1" });
    let started!: () => void;
    const startedP = new Promise<void>((resolve) => (started = resolve));
    const abortedP = new Promise<void>((resolve) => {
      server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, ctx) => {
        ctx.signal.addEventListener("abort", () => resolve());
        started();
        return new Promise(() => {});
      });
    });
    const client = await connectRaw(server);
    await initializeRaw(client);
    expect(server.sessions()).toHaveLength(1);
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "wait" } });
    await startedP;
    await client.close();
    await abortedP;
    await client.session.closed;
    expect(server.sessions()).toHaveLength(0);
  });

  it("never puts a stack on the wire", async () => {
    server = createServer({ name: "s", version: "1" });
    server.use({ id: "com.example/x", methods: { "x/boom": () => { throw new Error("secret internals"); } } });
    const client = await connectRaw(server);
    await initializeRaw(client);
    const response = await client.call(1, "x/boom");
    expect(response).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
  });
});
