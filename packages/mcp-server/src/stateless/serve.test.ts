import { describe, expect, it } from "vitest";
import type { JsonRpcResponse } from "@proto/jsonrpc";

const errorOf = (r: JsonRpcResponse) => ("error" in r ? r.error : undefined);
import { connectRaw, initializeRaw } from "../test-helpers";
import { createServer } from "../server";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const INFO = { name: "s", version: "1.0.0" };

function env(extra: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) {
  return { _meta: { [V]: "2026-07-28", [C]: caps, ...extra } };
}

function makeServer() {
  const server = createServer({ ...INFO, instructions: "hi" }, { capabilities: { tools: { listChanged: true } } });
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, async (args, ctx) => {
    await ctx.log("info", "echoing");
    return { content: [{ type: "text", text: args.text ?? "" }] };
  });
  server.resource({ uri: "file:///a.txt", name: "a" }, () => ({ contents: [{ uri: "file:///a.txt", text: "A" }] }));
  return server;
}

describe("modern requests", () => {
  it("server/discover answers in the released shape", async () => {
    const client = await connectRaw(makeServer());
    const res = await client.call(1, "server/discover", env());
    expect(res).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        resultType: "complete",
        supportedVersions: ["2026-07-28"],
        capabilities: expect.objectContaining({ tools: { listChanged: true } }),
        instructions: "hi",
        ttlMs: 0,
        cacheScope: "private",
        _meta: { "io.modelcontextprotocol/serverInfo": INFO },
      },
    });
  });
  it("stamps resultType, serverInfo and the cache hints", async () => {
    const client = await connectRaw(makeServer());
    const list = (await client.call(1, "tools/list", env())) as { result: Record<string, unknown> };
    expect(list.result).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private", _meta: { "io.modelcontextprotocol/serverInfo": INFO } });
    const call = (await client.call(2, "tools/call", { name: "echo", arguments: { text: "x" }, ...env() })) as { result: Record<string, unknown> };
    expect(call.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "x" }] });
    expect(call.result).not.toHaveProperty("ttlMs");
  });
  it("refuses removed methods, bad envelopes and unsupported versions", async () => {
    const client = await connectRaw(makeServer());
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
      expect(errorOf(await client.call(method, method, env()))?.code).toBe(-32601);
    }
    expect(errorOf(await client.call(10, "tools/list", { _meta: { [V]: "2026-07-28" } }))?.code).toBe(-32602);
    expect(errorOf(await client.call(11, "tools/list", { _meta: { [V]: 7, [C]: {} } }))?.code).toBe(-32602);
    const unsupported = await client.call(12, "tools/list", { _meta: { [V]: "v999.0.0", [C]: {} } });
    expect(errorOf(unsupported)).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "v999.0.0" } });
  });
  it("a missing resource is -32602 with data.uri on the modern wire, -32002 in a 2025 session", async () => {
    const server = makeServer();
    const modern = await connectRaw(server);
    const res = await modern.call(1, "resources/read", { uri: "file:///nope", ...env() });
    expect(errorOf(res)).toMatchObject({ code: -32602, data: { uri: "file:///nope" } });
    const legacy = await connectRaw(server);
    await initializeRaw(legacy);
    expect(errorOf(await legacy.call(2, "resources/read", { uri: "file:///nope" }))?.code).toBe(-32002);
  });
  it("logs only when the request set logLevel", async () => {
    const client = await connectRaw(makeServer());
    await client.call(1, "tools/call", { name: "echo", arguments: {}, ...env() });
    expect(client.received.some((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/message")).toBe(false);
    await client.call(2, "tools/call", { name: "echo", arguments: {}, ...env({ "io.modelcontextprotocol/logLevel": "debug" }) });
    expect(client.received.some((p) => !Array.isArray(p) && "method" in p && p.method === "notifications/message")).toBe(true);
  });
  it("serves a 2025 session and modern requests interleaved on one connection", async () => {
    const client = await connectRaw(makeServer());
    await initializeRaw(client);
    const legacy = (await client.call(1, "tools/list")) as { result: Record<string, unknown> };
    expect(legacy.result).not.toHaveProperty("resultType");
    const modern = (await client.call(2, "tools/list", env())) as { result: Record<string, unknown> };
    expect(modern.result.resultType).toBe("complete");
    const again = (await client.call(3, "tools/list")) as { result: Record<string, unknown> };
    expect(again.result).toEqual(legacy.result);
  });
  it("a method behind a capability not advertised is -32601, following registrations and removals", async () => {
    const server = createServer(INFO);
    const client = await connectRaw(server);
    const code = async (id: number, method: string, params: Record<string, unknown>) => errorOf(await client.call(id, method, { ...params, ...env() }))?.code;
    const complete = { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } };
    expect(await code(1, "tools/call", { name: "echo", arguments: {} })).toBe(-32601);
    expect(await code(2, "completion/complete", complete)).toBe(-32601);
    const prompt = server.prompt({ name: "p", arguments: [{ name: "a" }], complete: { a: ["x"] } }, () => "x");
    server.tool({ name: "echo", inputSchema: { type: "object" } }, () => "e");
    expect(await code(3, "tools/call", { name: "echo", arguments: {} })).toBeUndefined();
    expect(await code(4, "completion/complete", complete)).toBeUndefined();
    prompt.remove();
    server.removeTool("echo");
    expect(await code(5, "tools/call", { name: "echo", arguments: {} })).toBe(-32601);
    expect(await code(6, "completion/complete", complete)).toBe(-32601);
    const template = server.resourceTemplate({ uriTemplate: "repo://{name}", name: "repo", complete: { name: () => ["a"] } }, () => "x");
    const byTemplate = { ref: { type: "ref/resource", uri: "repo://{name}" }, argument: { name: "name", value: "" } };
    expect(await code(7, "completion/complete", byTemplate)).toBeUndefined();
    template.remove();
    expect(await code(8, "completion/complete", byTemplate)).toBe(-32601);
  });
});
