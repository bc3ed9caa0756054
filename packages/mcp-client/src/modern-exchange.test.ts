import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcError, RequestError, type RequestHandler } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";
import { discover, modernDone, modernTools } from "./fixtures/modern-discover";
import { createProtoFixture } from "./fixtures/proto-server";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";

/**
 * One multi round-trip call settles once, when the caller, the total timeout or the connection
 * says so, even while the client's own input handler is still running (and whether or not that
 * handler heeds its signal); the handler's signal tells it the exchange is over.
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
  inputRequests: { who: { method: "elicitation/create", params: { message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } } } } } },
};
const answered = (params: unknown): boolean => (params as Params).inputResponses !== undefined;
const later = <T>(ms: number, value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

async function modern(call: RequestHandler, options: Partial<ClientOptions> = {}): Promise<{ client: Client; server: ScriptedServer }> {
  const server = await createScriptedServer({ handlers: { "server/discover": discover, "tools/list": tools, "tools/call": call } });
  const client = createClient({ info: { name: "t", version: "1" }, validateToolOutput: false, ...options });
  clients.push(client);
  await client.connect(server.transport);
  return { client, server };
}

/** An elicitation handler that never answers; `seen` gets the signal it was given. */
function stuck(seen: AbortSignal[]): ClientOptions["elicitation"] {
  return { form: (_params, { signal }) => (seen.push(signal), new Promise(() => {})) };
}

/** The call's outcome, and whether it came. */
function watch(call: Promise<unknown>): { settled: () => boolean; outcome: Promise<unknown> } {
  let settled = false;
  const outcome = call.then((v) => v, (e: unknown) => e).finally(() => (settled = true));
  return { settled: () => settled, outcome };
}

describe("a multi round-trip call while the client's own input handler runs", () => {
  it("aborting ends the call as ABORTED at once, even when the handler ignores its signal", async () => {
    const signals: AbortSignal[] = [];
    const { client } = await modern(() => ask, { elicitation: stuck(signals) });
    const aborter = new AbortController();
    const call = watch(client.callTool("t", {}, { signal: aborter.signal }));
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    aborter.abort();
    await vi.waitFor(() => expect(call.settled()).toBe(true), { timeout: 2_000 });
    expect(await call.outcome).toMatchObject({ code: "ABORTED" });
    expect(signals[0]?.aborted).toBe(true);
  });

  it("maxTotalTimeoutMs ends the call as TIMEOUT while a handler still answers, and aborts the handler's signal", async () => {
    const signals: AbortSignal[] = [];
    const { client } = await modern(() => ask, { elicitation: stuck(signals) });
    const call = watch(client.callTool("t", {}, { maxTotalTimeoutMs: 50 }));
    await vi.waitFor(() => expect(call.settled()).toBe(true), { timeout: 2_000 });
    const error = await call.outcome;
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: "TIMEOUT" });
    expect((error as Error).message).toMatch(/maxTotalTimeoutMs/);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("the client's maxTotalTimeoutMs spans the rounds too, not only a per-call one", async () => {
    // Each round takes 200 ms; the client allows 300 ms in all.
    const { client } = await modern((params) => later(200, answered(params) ? done : ask), {
      maxTotalTimeoutMs: 300,
      elicitation: { form: () => ({ action: "accept", content: { name: "Ada" } }) },
    });
    const error = await client.callTool("t").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("TIMEOUT");
  });

  it("closing the client ends the call as CLOSED and aborts the handler's signal (no signal given)", async () => {
    const signals: AbortSignal[] = [];
    const { client } = await modern(() => ask, { elicitation: stuck(signals) });
    const call = watch(client.callTool("t"));
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    await client.close();
    await vi.waitFor(() => expect(call.settled()).toBe(true), { timeout: 2_000 });
    expect(await call.outcome).toMatchObject({ code: "CLOSED" });
    expect(signals[0]?.aborted).toBe(true);
  });

  it("the connection dropping ends the call as CLOSED and aborts the handler's signal", async () => {
    const signals: AbortSignal[] = [];
    const { client, server } = await modern(() => ask, { elicitation: stuck(signals) });
    const call = watch(client.callTool("t"));
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    await server.kill();
    await vi.waitFor(() => expect(call.settled()).toBe(true), { timeout: 2_000 });
    expect(await call.outcome).toMatchObject({ code: "CLOSED" });
    expect(signals[0]?.aborted).toBe(true);
  });
});

describe("an input request the client cannot use", () => {
  for (const [label, request] of [
    ["a sampling request without messages", { method: "sampling/createMessage", params: { maxTokens: 5 } }],
    ["a form request with a nested schema", { method: "elicitation/create", params: { message: "m", requestedSchema: { type: "object", properties: { a: { type: "object" } } } } }],
  ] as const) {
    it(`${label} is the server's INVALID_RESULT naming the input request, not a -32602 from the server`, async () => {
      const { client } = await modern(() => ({ resultType: "input_required", inputRequests: { bad: request } }), {
        sampling: { createMessage: () => ({ role: "assistant", content: { type: "text", text: "x" }, model: "m" }) },
        elicitation: { form: () => ({ action: "accept", content: {} }) },
      });
      const error = await client.callTool("t").catch((e: unknown) => e);
      expect(error).not.toBeInstanceOf(JsonRpcError);
      expect(error).toBeInstanceOf(McpClientError);
      expect((error as McpClientError).code).toBe(ClientFaultCode.InvalidResult);
      expect((error as Error).message).toMatch(/"bad"/);
    });
  }
});

describe("the handlers' signal after the call", () => {
  it("stays quiet when the call succeeds; tells a sibling handler still running when another one refused", async () => {
    const signals: AbortSignal[] = [];
    const { client } = await modern((params) => (answered(params) ? done : ask), { elicitation: { form: (_p, { signal }) => (signals.push(signal), { action: "accept", content: {} }) } });
    await client.callTool("t");
    expect(signals[0]?.aborted).toBe(false);
    const two = { resultType: "input_required", inputRequests: { a: ask.inputRequests.who, s: { method: "sampling/createMessage", params: { messages: [], maxTokens: 1 } } } };
    const waiting: AbortSignal[] = [];
    const refusing = await modern(() => two, {
      elicitation: stuck(waiting),
      sampling: { createMessage: () => { throw new Error("no model today"); } },
    });
    await expect(refusing.client.callTool("t")).rejects.toThrow(/no model today/);
    expect(waiting[0]?.aborted).toBe(true);
  });
});

describe("against our own @proto/mcp-server on the stateless wire", () => {
  it("aborting while the elicitation handler of its input request runs ends the call, and the next call goes through", async () => {
    const fixture = createProtoFixture();
    const [ours, theirs] = createMemoryTransportPair();
    await fixture.server.connect(theirs);
    const signals: AbortSignal[] = [];
    let answer = false;
    const client = createClient({ info: { name: "host", version: "1" }, elicitation: {
      form: (_params, { signal }) => (signals.push(signal), answer ? { action: "accept", content: { name: "Ada" } } : new Promise(() => {})),
    } });
    clients.push(client);
    await client.connect(ours);
    expect(client.server?.protocolVersion).toBe("2026-07-28");
    const aborter = new AbortController();
    const call = watch(client.callTool("ask-user", {}, { signal: aborter.signal }));
    await vi.waitFor(() => expect(signals).toHaveLength(1));
    aborter.abort();
    await vi.waitFor(() => expect(call.settled()).toBe(true), { timeout: 2_000 });
    expect(await call.outcome).toMatchObject({ code: "ABORTED" });
    answer = true;
    expect(JSON.parse(((await client.callTool("ask-user")).content[0] as { text: string }).text)).toMatchObject({ action: "accept", content: { name: "Ada" } });
  });
});
