/**
 * One `_meta` rule for every method, in both eras: a request without the claim meets
 * `checkRequestMeta` (-32602 for a `_meta` that is not an object or a progress token that is not
 * a string or a safe integer), `ping` and `server/discover` included; a request with the claim
 * meets the envelope, then the version, then the method, whatever the method (a claimed `ping`
 * used to skip the envelope and version checks: -32601 for any claim).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { JsonRpcFailure, JsonRpcResponse } from "@proto/jsonrpc";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw, initializeRaw } from "./test-helpers";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function make(): Server {
  server = createServer({ name: "s", version: "1" });
  server.tool({ name: "echo", inputSchema: { type: "object" } }, () => "ok");
  return server;
}

function errorOf(response: JsonRpcResponse): JsonRpcFailure["error"] | undefined {
  return "error" in response ? response.error : undefined;
}

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";

describe("2025-11-25 requests: the _meta rule", () => {
  it.each([
    ["a fractional progress token", { progressToken: 1.5 }, /progressToken must be a string or an integer/],
    ["a progress token past 2^53", { progressToken: 2 ** 53 }, /progressToken must be a string or an integer/],
    ["an object progress token", { progressToken: {} }, /progressToken must be a string or an integer/],
  ])("refuses %s with -32602 on every method, ping and server/discover included", async (_name, meta, message) => {
    const client = await connectRaw(make());
    await initializeRaw(client);
    let id = 0;
    for (const [method, params] of [["ping", {}], ["server/discover", {}], ["tools/list", {}], ["tools/call", { name: "echo", arguments: {} }]] as const) {
      const error = errorOf(await client.call(++id, method, { ...params, _meta: meta }));
      expect(error?.code, method).toBe(-32602);
      expect(error?.message, method).toMatch(message);
    }
  });

  it("refuses a _meta that is not an object, on ping too", async () => {
    const client = await connectRaw(make());
    await initializeRaw(client);
    for (const [id, method] of [[1, "ping"], [2, "tools/list"]] as const) {
      expect(errorOf(await client.call(id, method, { _meta: 5 }))).toMatchObject({ code: -32602, message: expect.stringMatching(/_meta must be an object/) });
    }
  });

  it("accepts string and safe-integer progress tokens", async () => {
    const client = await connectRaw(make());
    await initializeRaw(client);
    expect(await client.call(1, "ping", { _meta: { progressToken: 2 ** 53 - 1 } })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(errorOf(await client.call(2, "tools/call", { name: "echo", arguments: {}, _meta: { progressToken: "p" } }))).toBeUndefined();
  });
});

describe("claimed requests: envelope, then version, then method, for every method", () => {
  it.each(["ping", "initialize", "tools/list", "server/discover"])("%s with a non-string version is -32602, never -32601 or -32022", async (method) => {
    const client = await connectRaw(make());
    const error = errorOf(await client.call(1, method, { _meta: { [V]: 123, [C]: {} } }));
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining(`_meta["${V}"] must be a string`) });
  });

  it.each(["ping", "initialize", "tools/list", "server/discover"])("%s under an unsupported version is -32022 naming it", async (method) => {
    const client = await connectRaw(make());
    const error = errorOf(await client.call(1, method, { _meta: { [V]: "v999.0.0", [C]: {} } }));
    expect(error).toMatchObject({ code: -32022, data: { requested: "v999.0.0", supported: ["2026-07-28"] } });
  });

  it("a claimed ping or initialize with a good envelope is -32601 (removed in 2026-07-28)", async () => {
    const client = await connectRaw(make());
    for (const [id, method] of [[1, "ping"], [2, "initialize"]] as const) {
      expect(errorOf(await client.call(id, method, { _meta: { [V]: "2026-07-28", [C]: {} } }))?.code).toBe(-32601);
    }
  });
});
