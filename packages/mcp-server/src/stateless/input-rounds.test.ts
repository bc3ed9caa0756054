import { describe, expect, it } from "vitest";
import { connectRaw } from "../test-helpers";
import { createServer } from "../server";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const ALL = { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} };
const env = (caps: Record<string, unknown> = ALL) => ({ _meta: { [V]: "2026-07-28", [C]: caps } });
const KEY = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };

function makeServer(now?: () => number) {
  const server = createServer({ name: "s", version: "1" }, { stateless: { requestState: { keys: [KEY], ...(now ? { now } : {}) } } });
  server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const r = await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } });
    return { content: [{ type: "text", text: r.action === "accept" ? `hi ${String(r.content?.name)}` : r.action }] };
  });
  server.tool({ name: "two", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const [s, roots] = await Promise.all([ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 }), ctx.listRoots()]);
    return { content: [{ type: "text", text: `${(s.content as { text: string }).text} ${roots.map((r) => r.uri).join(",")}` }] };
  });
  server.tool({ name: "three", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const a = await ctx.elicit({ message: "a", requestedSchema: { type: "object", properties: { v: { type: "string" } } } });
    const b = await ctx.elicitUrl({ message: "b", url: "https://example.com/consent" });
    const c = await ctx.elicit({ message: "c", requestedSchema: { type: "object", properties: { v: { type: "string" } } } });
    return { content: [{ type: "text", text: [a.content?.v, b.action, c.content?.v].join("/") }] };
  });
  return server;
}

type Res = { result?: Record<string, unknown>; error?: { code: number; data?: unknown } };

describe("multi-round input", () => {
  it("asks with input_required and continues the handler on the retry", async () => {
    const client = await connectRaw(makeServer());
    const first = (await client.call(1, "tools/call", { name: "ask", ...env() })) as Res;
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-0": { method: "elicitation/create" } } });
    expect(typeof first.result?.requestState).toBe("string");
    const retry = (await client.call(2, "tools/call", {
      name: "ask",
      ...env(),
      inputResponses: { "elicit-0": { action: "accept", content: { name: "octocat" } }, bogus: { x: 1 } },
      requestState: first.result?.requestState,
    })) as Res;
    expect(retry.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "hi octocat" }] });
  });
  it("asks for two inputs in one round", async () => {
    const client = await connectRaw(makeServer());
    const first = (await client.call(1, "tools/call", { name: "two", ...env() })) as Res;
    expect(Object.keys(first.result?.inputRequests as object).sort()).toEqual(["roots-1", "sample-0"]);
    const retry = (await client.call(2, "tools/call", {
      name: "two",
      ...env(),
      inputResponses: { "sample-0": { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" }, "roots-1": { roots: [{ uri: "file:///p" }] } },
      requestState: first.result?.requestState,
    })) as Res;
    expect(retry.result?.content).toEqual([{ type: "text", text: "Paris file:///p" }]);
  });
  it("runs three rounds, URL elicitation without elicitationId", async () => {
    const client = await connectRaw(makeServer());
    let res = (await client.call(1, "tools/call", { name: "three", ...env() })) as Res;
    const answers = [{ action: "accept", content: { v: "A" } }, { action: "accept" }, { action: "accept", content: { v: "C" } }];
    for (let round = 0; round < 3; round++) {
      expect(res.result?.resultType).toBe("input_required");
      const requests = res.result?.inputRequests as Record<string, { params: Record<string, unknown> }>;
      const [key] = Object.keys(requests);
      if (round === 1) expect(requests[key as string]?.params).toEqual({ mode: "url", message: "b", url: "https://example.com/consent" });
      res = (await client.call(10 + round, "tools/call", { name: "three", ...env(), inputResponses: { [key as string]: answers[round] }, requestState: res.result?.requestState })) as Res;
    }
    expect(res.result?.content).toEqual([{ type: "text", text: "A/accept/C" }]);
  });
  it("asks again when the retry lacks the response", async () => {
    const client = await connectRaw(makeServer());
    const first = (await client.call(1, "tools/call", { name: "ask", ...env() })) as Res;
    const again = (await client.call(2, "tools/call", { name: "ask", ...env(), requestState: first.result?.requestState })) as Res;
    expect(again.result?.resultType).toBe("input_required");
  });
  it("refuses tampered, expired, foreign and malformed state or responses with -32602", async () => {
    let clock = 0;
    const client = await connectRaw(makeServer(() => clock));
    const first = (await client.call(1, "tools/call", { name: "ask", ...env() })) as Res;
    const state = String(first.result?.requestState);
    const flipped = state.slice(0, -2) + (state.endsWith("A") ? "B" : "A") + state.slice(-1);
    const ok = { "elicit-0": { action: "accept", content: { name: "x" } } };
    const cases: unknown[] = [
      { name: "ask", ...env(), inputResponses: ok, requestState: flipped },
      { name: "ask", ...env(), inputResponses: ok, requestState: "garbage" },
      { name: "ask", ...env(), inputResponses: ok, requestState: "x".repeat(1024 * 1024) },
      { name: "two", ...env(), inputResponses: ok, requestState: state },
      { name: "ask", arguments: { other: 1 }, ...env(), inputResponses: ok, requestState: state },
      { name: "ask", ...env(), inputResponses: { "elicit-0": { action: "maybe" } }, requestState: state },
      { name: "ask", ...env(), inputResponses: [1, 2], requestState: state },
      { name: "ask", ...env(), inputResponses: ok, requestState: 42 },
    ];
    let id = 10;
    for (const params of cases) expect(((await client.call(id++, "tools/call", params)) as Res).error?.code).toBe(-32602);
    clock = 11 * 60_000;
    expect(((await client.call(id++, "tools/call", { name: "ask", ...env(), inputResponses: ok, requestState: state })) as Res).error?.code).toBe(-32602);
  });
  it("is -32021 with requiredCapabilities when the request did not declare the capability", async () => {
    const client = await connectRaw(makeServer());
    const res = (await client.call(1, "tools/call", { name: "ask", ...env({}) })) as Res;
    expect(res.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });
  it("a state minted with a rotated-out key still opens while listed; a foreign key never does", async () => {
    const old = createServer({ name: "s", version: "1" }, { stateless: { requestState: { keys: [KEY] } } });
    old.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => ({ content: [{ type: "text", text: (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action }] }));
    const state = ((await (await connectRaw(old)).call(1, "tools/call", { name: "ask", ...env() })) as Res).result?.requestState;
    const rotated = createServer({ name: "s", version: "1" }, { stateless: { requestState: { keys: [{ id: "k2", secret: "fedcba9876543210fedcba9876543210" }, KEY] } } });
    rotated.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => ({ content: [{ type: "text", text: (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action }] }));
    const params = { name: "ask", ...env(), inputResponses: { "elicit-0": { action: "decline" } }, requestState: state };
    expect(((await (await connectRaw(rotated)).call(2, "tools/call", params)) as Res).result?.content).toEqual([{ type: "text", text: "decline" }]);
    const foreign = createServer({ name: "s", version: "1" });
    foreign.tool({ name: "ask", inputSchema: { type: "object" } }, () => ({ content: [] }));
    expect(((await (await connectRaw(foreign)).call(3, "tools/call", params)) as Res).error?.code).toBe(-32602);
  });
  it("logs nothing when a round ends with input_required (normal control flow)", async () => {
    const seen: string[] = [];
    const record = (message: string): void => void seen.push(message);
    const server = createServer({ name: "s", version: "1" }, { logger: { debug() {}, info: record, warn: record, error: record }, stateless: { requestState: { keys: [KEY] } } });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => ({ content: [{ type: "text", text: (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action }] }));
    const client = await connectRaw(server);
    const first = (await client.call(1, "tools/call", { name: "ask", ...env() })) as Res;
    expect(first.result?.resultType).toBe("input_required");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([]);
    const retry = (await client.call(2, "tools/call", { name: "ask", ...env(), inputResponses: { "elicit-0": { action: "decline" } }, requestState: first.result?.requestState })) as Res;
    expect(retry.result?.content).toEqual([{ type: "text", text: "decline" }]);
  });
  it("answers a synchronous handler that asked without waiting with its own result", async () => {
    const server = makeServer();
    server.tool({ name: "sync", inputSchema: { type: "object" } }, (_a, ctx) => {
      void ctx.listRoots().catch(() => undefined);
      return { content: [{ type: "text", text: "done" }] };
    });
    const res = (await (await connectRaw(server)).call(1, "tools/call", { name: "sync", ...env() })) as Res;
    expect(res.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "done" }] });
  });
});
