/**
 * Modern requests stand alone: cache hints come from the server's options (per server, per
 * feature, safe defaults, one scope for every page of a list), `tools/list` is the same whoever
 * asks, and nothing is taken from the connection's 2025-11-25 session (its capabilities, its
 * log level) or from an earlier modern request; inputResponses under keys never asked are ignored.
 */
import { describe, expect, it } from "vitest";
import type { JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";
import { connectRaw, initializeRaw } from "../test-helpers";
import { createServer } from "../server";
import type { ServerOptions } from "../server-types";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const env = (caps: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({ _meta: { [V]: "2026-07-28", [C]: caps, ...extra } });
const resultOf = (r: JsonRpcResponse) => ("result" in r ? (r.result as Record<string, unknown>) : undefined);
const errorOf = (r: JsonRpcResponse) => ("error" in r ? r.error : undefined);
const hintsOf = (r: JsonRpcResponse) => ({ ttlMs: resultOf(r)?.ttlMs, cacheScope: resultOf(r)?.cacheScope });

function makeServer(options: ServerOptions = {}) {
  const server = createServer({ name: "s", version: "1.0.0" }, { pageSize: 1, ...options });
  for (const name of ["a", "b", "c"]) server.tool({ name, inputSchema: { type: "object" } }, () => name);
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => {
    await ctx.log("info", "asking");
    const r = await ctx.elicit({ message: "Go?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } });
    return r.action;
  });
  server.prompt({ name: "p" }, () => "p");
  server.resource({ uri: "file:///r", name: "r" }, () => "r");
  return server;
}

async function allPages(client: Awaited<ReturnType<typeof connectRaw>>, method: string, key: string, caps: Record<string, unknown> = {}): Promise<{ names: string[]; hints: unknown[] }> {
  const names: string[] = [];
  const hints: unknown[] = [];
  let cursor: unknown;
  for (let id = 100; ; id++) {
    const res = await client.call(id, method, { ...(cursor === undefined ? {} : { cursor }), ...env(caps) });
    const result = resultOf(res) as Record<string, unknown>;
    names.push(...(result[key] as { name: string }[]).map((i) => i.name));
    hints.push(hintsOf(res));
    cursor = result.nextCursor;
    if (cursor === undefined) return { names, hints };
  }
}

describe("modern requests stand alone", () => {
  it("carries the safe default hints, the server's default, and each feature's own, on every page of a list", async () => {
    const plain = await connectRaw(makeServer());
    const safe = await allPages(plain, "tools/list", "tools");
    expect(safe.names).toEqual(["a", "b", "c", "ask"]);
    expect(new Set(safe.hints.map((h) => JSON.stringify(h)))).toEqual(new Set([JSON.stringify({ ttlMs: 0, cacheScope: "private" })]));

    const cache = { default: { ttlMs: 5_000, cacheScope: "public" }, tools: { ttlMs: 60_000, cacheScope: "public" }, reads: { ttlMs: 1_000, cacheScope: "private" } } as const;
    const tuned = await connectRaw(makeServer({ stateless: { cache } }));
    const tools = await allPages(tuned, "tools/list", "tools");
    expect(tools.hints).toHaveLength(4);
    for (const h of tools.hints) expect(h).toEqual({ ttlMs: 60_000, cacheScope: "public" });
    expect(hintsOf(await tuned.call(1, "prompts/list", env()))).toEqual({ ttlMs: 5_000, cacheScope: "public" });
    expect(hintsOf(await tuned.call(2, "resources/list", env()))).toEqual({ ttlMs: 5_000, cacheScope: "public" });
    expect(hintsOf(await tuned.call(3, "resources/read", { uri: "file:///r", ...env() }))).toEqual({ ttlMs: 1_000, cacheScope: "private" });
    expect(() => makeServer({ stateless: { cache: { tools: { ttlMs: -1, cacheScope: "public" } } } })).toThrow(/stateless\.cache\.tools\.ttlMs/);
  });

  it("lists the same tools whatever the connection, its session or the request's capabilities", async () => {
    const server = makeServer();
    const bare = await connectRaw(server);
    const withSession = await connectRaw(server);
    await initializeRaw(withSession, "2025-11-25", { elicitation: {}, sampling: {}, roots: {} });
    const a = await allPages(bare, "tools/list", "tools");
    const b = await allPages(withSession, "tools/list", "tools", { elicitation: { form: {} }, sampling: {} });
    expect(b).toEqual(a);
  });

  it("takes neither capabilities nor a log level from the connection's 2025-11-25 session, nor from an earlier request", async () => {
    const client = await connectRaw(makeServer());
    await initializeRaw(client, "2025-11-25", { elicitation: {} });
    await client.call("lvl", "logging/setLevel", { level: "debug" });
    const logs = () => client.received.filter((p: JsonRpcPayload) => !Array.isArray(p) && "method" in p && p.method === "notifications/message").length;
    const before = logs();
    // The session declared elicitation and set debug; the modern request declared nothing and set no level.
    const bare = await client.call(1, "tools/call", { name: "ask", arguments: {}, ...env() });
    expect(errorOf(bare)).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    expect(logs()).toBe(before);
    // An earlier modern request that declared elicitation and a level lends nothing to the next one.
    const asked = await client.call(2, "tools/call", { name: "ask", arguments: {}, ...env({ elicitation: { form: {} } }, { "io.modelcontextprotocol/logLevel": "info" }) });
    expect(resultOf(asked)?.resultType).toBe("input_required");
    expect(logs()).toBe(before + 1);
    const again = await client.call(3, "tools/call", { name: "ask", arguments: {}, ...env() });
    expect(errorOf(again)?.code).toBe(-32021);
    expect(logs()).toBe(before + 1);
  });

  it("ignores inputResponses under keys it never asked, and still asks for the missing one", async () => {
    const client = await connectRaw(makeServer());
    const caps = { elicitation: { form: {} } };
    const first = resultOf(await client.call(1, "tools/call", { name: "ask", arguments: {}, ...env(caps) }));
    const key = Object.keys(first?.inputRequests as object)[0] as string;
    const state = first?.requestState;
    const onlyUnknown = resultOf(await client.call(2, "tools/call", { name: "ask", arguments: {}, ...env(caps), requestState: state, inputResponses: { "never-asked": { anything: 1 } } }));
    expect(onlyUnknown?.resultType).toBe("input_required");
    expect(Object.keys(onlyUnknown?.inputRequests as object)).toEqual([key]);
    const done = resultOf(await client.call(3, "tools/call", { name: "ask", arguments: {}, ...env(caps), requestState: state, inputResponses: { [key]: { action: "accept", content: { ok: true } }, "never-asked": { anything: 1 } } }));
    expect(done).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "accept" }] });
  });
});
