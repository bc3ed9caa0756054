import { JsonRpcError } from "@proto/jsonrpc";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { connectRaw } from "../test-helpers";
import { createServer } from "../server";
import { createRequestStateCodec } from "./request-state";

const KEY = { id: "k", secret: "0123456789abcdef0123456789abcdef" };
const BINDING = { method: "tools/call", digest: "d", principal: "" };

async function refused(promise: Promise<unknown>): Promise<boolean> {
  try {
    await promise;
    return false;
  } catch (error) {
    return error instanceof JsonRpcError && error.code === -32602;
  }
}

describe("requestState", () => {
  it("never opens a forged token: any string, or a real one with any change", async () => {
    const codec = createRequestStateCodec({ keys: [KEY] });
    const real = await codec.seal(BINDING, { answers: { a: { action: "accept" } } });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.tuple(fc.nat({ max: real.length - 1 }), fc.string({ minLength: 1, maxLength: 1 })).map(([i, c]) => real.slice(0, i) + c + real.slice(i + 1)),
          fc.tuple(fc.nat({ max: real.length }), fc.string({ minLength: 1, maxLength: 4 })).map(([i, s]) => real.slice(0, i) + s + real.slice(i)),
          fc.nat({ max: real.length - 1 }).map((i) => real.slice(0, i)),
        ),
        async (token) => {
          fc.pre(token !== real);
          expect(await refused(codec.open(token, BINDING))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
  it("opens only for its own method, digest and principal, and only with a listed key", async () => {
    const codec = createRequestStateCodec({ keys: [KEY] });
    const token = await codec.seal(BINDING, { answers: {} });
    await expect(codec.open(token, BINDING)).resolves.toEqual({ answers: {} });
    for (const other of [{ ...BINDING, method: "prompts/get" }, { ...BINDING, digest: "e" }, { ...BINDING, principal: "mallory" }]) {
      expect(await refused(codec.open(token, other))).toBe(true);
    }
    const stranger = createRequestStateCodec({ keys: [{ id: "k", secret: "another secret of at least 32 bytes!!" }] });
    expect(await refused(stranger.open(token, BINDING))).toBe(true);
  });
  it("refuses misuse of the options", () => {
    expect(() => createRequestStateCodec({ keys: [] })).toThrow(TypeError);
    expect(() => createRequestStateCodec({ keys: [{ id: "k", secret: "short" }] })).toThrow(TypeError);
    expect(() => createRequestStateCodec({ keys: [{ id: "bad id", secret: KEY.secret }] })).toThrow(TypeError);
  });
});

describe("every modern request gets exactly one answer", () => {
  it("whatever its envelope, retry fields and method", async () => {
    const server = createServer({ name: "s", version: "1" });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_a, ctx) => (await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } })).action);
    const client = await connectRaw(server);
    const value = fc.oneof(fc.constant(undefined), fc.string(), fc.integer(), fc.constant(null), fc.constant({}), fc.array(fc.string(), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }));
    const params = fc.record(
      {
        name: fc.constantFrom("ask", "nope", 7),
        _meta: fc.record({ "io.modelcontextprotocol/protocolVersion": fc.oneof(fc.constant("2026-07-28"), value), "io.modelcontextprotocol/clientCapabilities": fc.oneof(fc.constant({ elicitation: {} }), value), "io.modelcontextprotocol/logLevel": value }, { requiredKeys: ["io.modelcontextprotocol/protocolVersion"] }),
        inputResponses: value,
        requestState: value,
      },
      { requiredKeys: ["_meta"] },
    );
    let id = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("tools/call", "prompts/get", "resources/read", "tools/list", "server/discover", "ping"), params, async (method, p) => {
        const before = client.received.length;
        const mine = `p${id++}`;
        const answer = await client.call(mine, method, p);
        expect("result" in answer || "error" in answer).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 0));
        const answers = client.received.slice(before).filter((m) => !Array.isArray(m) && "id" in m && m.id === mine && !("method" in m));
        expect(answers).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});
