import { describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import { connectRawClient } from "./client-requests/test-support";
import { ProtocolError } from "./protocol-error";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectRaw } from "./test-helpers";
import { TOOL_ERROR_META_KEY } from "./tool-call";

type Res = { result?: { isError?: boolean; content?: { text?: string }[]; _meta?: Record<string, unknown>; [key: string]: unknown }; error?: { code: number; message: string; data?: unknown } };

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const modern = (caps: Record<string, unknown>) => ({ _meta: { [V]: "2026-07-28", [C]: caps } });
const obj = { type: "object" } as const;
const form = { message: "Name?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } as const;

/** Tools that let the errors of their own requests to the client escape. */
function askingServer(): Server {
  const server = createServer({ name: "asker", version: "1" });
  server.tool({ name: "sample", inputSchema: obj }, async (_a, ctx) => (await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "?" } }], maxTokens: 5 })).model);
  server.tool({ name: "elicit", inputSchema: obj }, async (_a, ctx) => (await ctx.elicit(form)).action);
  server.tool({ name: "roots", inputSchema: obj }, async (_a, ctx) => (await ctx.listRoots()).length);
  server.tool({ name: "link", inputSchema: obj }, (_a, ctx) => {
    throw ctx.urlElicitationRequired({ message: "Link your account", url: "https://example.com/link", elicitationId: "e1" });
  });
  server.tool({ name: "deliberate", inputSchema: obj }, () => {
    throw new ProtocolError(-32050, "quota exhausted", { retryAfter: 30 });
  });
  server.tool({ name: "plain", inputSchema: obj }, () => {
    throw new JsonRpcError(-32050, "quota exhausted");
  });
  return server;
}

function expectToolError(res: Res, text: RegExp, error: { code: number; data?: unknown }): void {
  expect(res.error).toBeUndefined();
  expect(res.result?.isError).toBe(true);
  expect(res.result?.content?.[0]?.text).toMatch(text);
  expect(res.result?._meta?.[TOOL_ERROR_META_KEY]).toMatchObject({ code: "request_failed", error });
}

describe("errors of the tool's own requests to the client (2025-11-25 session)", () => {
  it("a missing client capability is an isError result naming it, never the 2026-only -32021 on the wire", async () => {
    const raw = await connectRawClient(askingServer());
    expectToolError((await raw.call(1, "tools/call", { name: "sample" })) as Res, /"sampling"/, { code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    expectToolError((await raw.call(2, "tools/call", { name: "elicit" })) as Res, /"elicitation"/, { code: -32021 });
    expectToolError((await raw.call(3, "tools/call", { name: "roots" })) as Res, /"roots"/, { code: -32021 });
    expectToolError((await raw.call(4, "tools/call", { name: "link" })) as Res, /"elicitation"/, { code: -32021 });
  });

  it("the client's refusal (its own error code) is an isError result with the client's message", async () => {
    const raw = await connectRawClient(askingServer(), { sampling: {}, elicitation: {}, roots: {} });
    for (const [id, name, method] of [[1, "sample", "sampling/createMessage"], [2, "elicit", "elicitation/create"], [3, "roots", "roots/list"]] as const) {
      const answer = raw.call(id, "tools/call", { name });
      const request = (await raw.next((m) => "method" in m && m.method === method)) as { id: number };
      await raw.send({ jsonrpc: "2.0", id: request.id, error: { code: -1, message: `User rejected ${method}` } });
      expectToolError((await answer) as Res, new RegExp(`User rejected ${method}`), { code: -1 });
    }
  });

  it("a ProtocolError is the request's error; a plain JsonRpcError is the tool's failure", async () => {
    const raw = await connectRawClient(askingServer(), { elicitation: { url: {} } });
    expect(((await raw.call(1, "tools/call", { name: "deliberate" })) as Res).error).toEqual({ code: -32050, message: "quota exhausted", data: { retryAfter: 30 } });
    expectToolError((await raw.call(2, "tools/call", { name: "plain" })) as Res, /quota exhausted/, { code: -32050 });
    expect(((await raw.call(3, "tools/call", { name: "link" })) as Res).error).toMatchObject({ code: -32042, data: { elicitations: [{ elicitationId: "e1" }] } });
  });
});

describe("errors of the tool's own requests under 2026-07-28", () => {
  it("a capability the request did not declare stays -32021 with requiredCapabilities, as the spec requires", async () => {
    const client = await connectRaw(askingServer());
    for (const [name, required] of [["sample", { sampling: {} }], ["elicit", { elicitation: { form: {} } }], ["roots", { roots: {} }]] as const) {
      const res = (await client.call(name, "tools/call", { name, ...modern({}) })) as Res;
      expect(res.error).toMatchObject({ code: -32021, data: { requiredCapabilities: required } });
    }
    expect(((await client.call("link", "tools/call", { name: "link", ...modern({ elicitation: { url: {} } }) })) as Res).error).toMatchObject({ code: -32042 });
  });
});

describe("tools/call arguments that are not an object", () => {
  function echoServer(calls: unknown[]): Server {
    const server = createServer({ name: "echo", version: "1" });
    server.tool({ name: "echo", inputSchema: { type: "object", properties: { id: { type: "string" } } } }, (args) => {
      calls.push(args);
      return "ran";
    });
    return server;
  }
  const bad = ['{"id":"x"}', [1], 5, null, true];

  it("is -32602 in a 2025-11-25 session, and the handler never runs; absent arguments are {}", async () => {
    const calls: unknown[] = [];
    const raw = await connectRawClient(echoServer(calls));
    let id = 1;
    for (const args of bad) {
      const res = (await raw.call(id++, "tools/call", { name: "echo", arguments: args })) as Res;
      expect(res.error, JSON.stringify(args)).toMatchObject({ code: -32602, message: expect.stringMatching(/arguments must be an object/) });
    }
    expect(calls).toEqual([]);
    expect(((await raw.call(id++, "tools/call", { name: "echo" })) as Res).result?.content).toEqual([{ type: "text", text: "ran" }]);
    expect(calls).toEqual([{}]);
  });

  it("is -32602 under 2026-07-28 too", async () => {
    const calls: unknown[] = [];
    const client = await connectRaw(echoServer(calls));
    let id = 1;
    for (const args of bad) {
      const res = (await client.call(id++, "tools/call", { name: "echo", arguments: args, ...modern({}) })) as Res;
      expect(res.error, JSON.stringify(args)).toMatchObject({ code: -32602 });
    }
    expect(calls).toEqual([]);
  });
});
