import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, RequestError, type JsonRpcId, type RequestHandler } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";
import { discover, modernDone, modernTools } from "./fixtures/modern-discover";

/**
 * What one multi round-trip call (2026-07-28 basic/patterns/mrtr) keeps across its rounds, seen
 * from the server: a fresh JSON-RPC id per round and per -32020 retry, progress of every round
 * reaching the one `onProgress`, one total timeout and one signal for the whole exchange.
 */
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

type Params = { readonly [key: string]: unknown };
const tools = modernTools;
const done = modernDone;
const ask = {
  resultType: "input_required",
  requestState: "s",
  inputRequests: { who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } },
};
const answered = (params: unknown): boolean => (params as Params).inputResponses !== undefined;

async function modern(call: RequestHandler, options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": tools, "tools/call": call } });
  const client = createClient({ info: { name: "t", version: "1" }, validateToolOutput: false, elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) }, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

describe("one multi round-trip exchange", () => {
  it("sends every round and the -32020 retry with a fresh JSON-RPC id", async () => {
    const ids: JsonRpcId[] = [];
    let mismatched = false;
    const { client } = await modern((params, ctx) => {
      ids.push(ctx.id);
      if (!answered(params)) return ask;
      if (!mismatched) {
        mismatched = true;
        throw new JsonRpcError(-32020, "Header mismatch: Mcp-Param-Region");
      }
      return done;
    });
    expect((await client.callTool("t")).content).toEqual(done.content);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
  });

  it("routes the progress of every round to the call's onProgress, each round with its own token", async () => {
    const tokens: unknown[] = [];
    const { client } = await modern(async (params, ctx) => {
      const token = ((params as Params)._meta as Params).progressToken;
      tokens.push(token);
      await ctx.notify("notifications/progress", { progressToken: token as string, progress: tokens.length });
      return answered(params) ? done : ask;
    });
    const seen: number[] = [];
    await client.callTool("t", {}, { onProgress: (p) => seen.push(p.progress) });
    expect(tokens).toHaveLength(2);
    expect(tokens.every((token) => typeof token === "string" || typeof token === "number")).toBe(true);
    expect(new Set(tokens).size).toBe(2);
    expect(seen).toEqual([1, 2]);
  });

  it("maxTotalTimeoutMs spans the rounds: time spent answering round 1 is taken from round 2", async () => {
    // Round 2 would finish within 200 ms on its own; the 120 ms the handler took leave it too little.
    const { client, server } = await modern(async (params) => (answered(params) ? new Promise((resolve) => setTimeout(() => resolve(done), 120)) : ask), {
      elicitation: { form: () => new Promise((resolve) => setTimeout(() => resolve({ action: "accept", content: { name: "Ada" } }), 120)) },
    });
    const error = await client.callTool("t", {}, { maxTotalTimeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("TIMEOUT");
    expect(server.received.filter((r) => r.method === "tools/call")).toHaveLength(2);
  });

  it("aborting while a later round is in flight cancels that round's request on the server", async () => {
    const ids: JsonRpcId[] = [];
    const aborter = new AbortController();
    const { client, server } = await modern((params, ctx) => {
      ids.push(ctx.id);
      return answered(params) ? new Promise(() => {}) : ask;
    });
    const call = client.callTool("t", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(ids).toHaveLength(2));
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
    await vi.waitFor(() => expect(server.notifications.filter((n) => n.method === "notifications/cancelled").map((n) => (n.params as Params).requestId)).toEqual([ids[1]]));
  });

  it("answers a URL-mode input request (no elicitationId on this wire) with the url handler", async () => {
    const urls: unknown[] = [];
    const url = { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login" } };
    const { client, server } = await modern((params) => (answered(params) ? done : { resultType: "input_required", inputRequests: { go: url } }), {
      elicitation: { url: (params) => (urls.push(params.url), { action: "accept" }) },
    });
    expect((await client.callTool("t")).content).toEqual(done.content);
    expect(urls).toEqual(["https://example.com/login"]);
    expect((server.received.filter((r) => r.method === "tools/call")[1]?.params as Params).inputResponses).toEqual({ go: { action: "accept" } });
  });

  it("a URL-mode input request to a client with only a form handler ends the call with INPUT_UNAVAILABLE, naming the handler, before any handler runs", async () => {
    const form = vi.fn(() => ({ action: "accept" as const, content: {} }));
    const { client, server } = await modern(() => ({ resultType: "input_required", inputRequests: { go: { method: "elicitation/create", params: { mode: "url", message: "Sign in", url: "https://example.com/login" } } } }), { elicitation: { form } });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ code: ClientFaultCode.InputUnavailable, detail: { method: "elicitation/create", mode: "url" } });
    expect((error as Error).message).toMatch(/`elicitation\.url` handler/);
    expect(form).not.toHaveBeenCalled();
    expect(server.received.filter((r) => r.method === "tools/call")).toHaveLength(1);
  });

  it("a form-mode input request to a client with only a url handler ends the call with INPUT_UNAVAILABLE, naming the handler", async () => {
    const url = vi.fn(() => ({ action: "accept" as const }));
    const { client } = await modern(() => ask, { elicitation: { url } });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ClientFaultCode.InputUnavailable, detail: { method: "elicitation/create", mode: "form" } });
    expect((error as Error).message).toMatch(/`elicitation\.form` handler/);
    expect(url).not.toHaveBeenCalled();
  });

  it("answers roots/list input requests with the roots handler", async () => {
    const { client, server } = await modern((params) => (answered(params) ? done : { resultType: "input_required", inputRequests: { r: { method: "roots/list", params: {} } } }), { roots: [{ uri: "file:///work" }] });
    await client.callTool("t");
    const retry = server.received.filter((r) => r.method === "tools/call")[1]?.params as Params;
    expect(retry.inputResponses).toEqual({ r: { roots: [{ uri: "file:///work" }] } });
    const none = await modern(() => ({ resultType: "input_required", inputRequests: { r: { method: "roots/list", params: {} } } }));
    expect(((await none.client.callTool("t").catch((e: unknown) => e)) as McpClientError).code).toBe(ClientFaultCode.InputUnavailable);
  });
});
