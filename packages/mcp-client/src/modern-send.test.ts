import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, RequestError, type RequestHandler } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";
import { discover, modernDone, modernTools } from "./fixtures/modern-discover";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Params = { readonly [key: string]: unknown };
const tools = modernTools;
const done = modernDone;
const ask = (extra: Params = {}) => ({
  resultType: "input_required",
  inputRequests: { who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } },
  ...extra,
});

async function modern(call: RequestHandler, options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": tools, "tools/call": call } });
  const client = createClient({ info: { name: "t", version: "1" }, validateToolOutput: false, elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) }, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

const calls = (server: ScriptedServer): Params[] => server.received.filter((r) => r.method === "tools/call").map((r) => r.params as Params);

describe("input_required rounds", () => {
  it("answers with the elicitation handler and retries with inputResponses and the requestState byte for byte", async () => {
    const state = ' {"n": 1, "z":"\u00e9"} ';
    const { client, server } = await modern((params) => ((params as Params).requestState === state ? done : ask({ requestState: state })));
    expect((await client.callTool("t", { a: 1 })).content).toEqual(done.content);
    const [first, retry] = calls(server);
    expect(first).not.toHaveProperty("inputResponses");
    expect(retry).toMatchObject({ name: "t", arguments: { a: 1 }, requestState: state, inputResponses: { who: { action: "accept", content: { name: "Ada" } } } });
    expect((retry?._meta as Params)["io.modelcontextprotocol/protocolVersion"]).toBe("2026-07-28");
  });

  it("omits requestState on the retry when the server sent none, and keeps several rounds apart", async () => {
    let round = 0;
    const { client, server } = await modern(() => (++round < 3 ? ask() : done));
    await client.callTool("t");
    const sent = calls(server);
    expect(sent).toHaveLength(3);
    for (const params of sent) expect(params).not.toHaveProperty("requestState");
  });

  it("aborting the call while a handler answers a round ends it as ABORTED, the handler's signal aborted too", async () => {
    const aborter = new AbortController();
    let handlerAborted = false;
    const { client, server } = await modern(() => ask(), {
      elicitation: { form: (_params, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => ((handlerAborted = true), resolve({ action: "cancel" })), { once: true })) },
    });
    const call = client.callTool("t", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(calls(server)).toHaveLength(1));
    aborter.abort();
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("ABORTED");
    expect(handlerAborted).toBe(true);
    expect(calls(server)).toHaveLength(1);
  });

  it("a server that never stops asking is cut off after maxInputRounds", async () => {
    const { client, server } = await modern(() => ask({ requestState: "again" }), { maxInputRounds: 3 });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.InputRoundsExceeded);
    expect(calls(server)).toHaveLength(4);
  });

  it("asking for a capability the client does not have ends the call with INPUT_UNAVAILABLE", async () => {
    const { client } = await modern(() => ({ resultType: "input_required", inputRequests: { s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } }));
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.InputUnavailable);
    expect((error as Error).message).toMatch(/sampling/);
  });

  for (const [label, result] of [
    ["an unknown resultType", { resultType: "later", content: [] }],
    ["input_required with neither inputRequests nor requestState", { resultType: "input_required" }],
    ["a non-string requestState", { resultType: "input_required", requestState: 7 }],
    ["an input request without a method", { resultType: "input_required", inputRequests: { x: { params: {} } } }],
  ] as const) {
    it(`${label} is an INVALID_RESULT`, async () => {
      const { client } = await modern(() => result);
      expect(((await client.callTool("t").catch((e: unknown) => e)) as McpClientError).code).toBe(ClientFaultCode.InvalidResult);
    });
  }

  it("input_required on a method that may not ask is an INVALID_RESULT", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": () => ask() } });
    const client = createClient({ info: { name: "t", version: "1" } });
    clients.push(client);
    await client.connect(server.transport);
    expect(((await client.listTools().catch((e: unknown) => e)) as McpClientError).code).toBe(ClientFaultCode.InvalidResult);
  });

  it("a handler that refuses ends the call with its error; parallel calls never share state", async () => {
    let n = 0;
    const { client, server } = await modern((params) => {
      const p = params as Params;
      return p.requestState !== undefined ? { ...done, content: [{ type: "text", text: String(p.requestState) }] } : ask({ requestState: `s${++n}` });
    });
    const [a, b] = await Promise.all([client.callTool("t", { k: "a" }), client.callTool("t", { k: "b" })]);
    expect(new Set([a.content[0], b.content[0]].map((c) => (c as { text: string }).text))).toEqual(new Set(["s1", "s2"]));
    const retries = calls(server).filter((p) => p.requestState !== undefined);
    expect(retries.map((p) => [(p.arguments as Params).k, p.requestState]).sort()).toEqual([["a", "s1"], ["b", "s2"]]);
    const refusing = await modern(() => ask(), { elicitation: { form: () => { throw new Error("the user closed the dialog"); } } });
    await expect(refusing.client.callTool("t")).rejects.toThrow(/closed the dialog/);
  });
});

describe("header mismatch", () => {
  it("-32020 re-lists the tools and retries once; a second -32020 is the caller's", async () => {
    let mismatches = 1;
    const { client, server } = await modern(() => {
      if (mismatches-- > 0) throw new JsonRpcError(-32020, "Header mismatch: Mcp-Param-Region");
      return done;
    });
    expect((await client.callTool("t")).content).toEqual(done.content);
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "tools/call", "tools/list", "tools/call"]);
    mismatches = 2;
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect((error as JsonRpcError).code).toBe(-32020);
  });
});
