import { describe, expect, it, vi } from "vitest";
import type { Exchange, JsonRpcPayload, JsonRpcResponse, SingleRequestTransport, TransportSink } from "@proto/jsonrpc";
import { createServer } from "./server";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { roots: { listChanged: true } } };
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** One POST's transport, as Streamable HTTP makes it: one request, `send` with nowhere to go. */
function postTransport() {
  const controller = new AbortController();
  const replies: JsonRpcPayload[] = [];
  let sink: TransportSink | undefined;
  let closed = 0;
  let finished = false;
  const exchange: Exchange = {
    info: { transport: "http" },
    signal: controller.signal,
    reply: (payload) => (replies.push(payload), Promise.resolve()),
    finish: () => void ((finished = true), transport.close()),
  };
  const transport: SingleRequestTransport = {
    singleRequest: true,
    start: (s) => ((sink = s), Promise.resolve()),
    send: () => Promise.reject(new Error("no standalone stream")),
    close: () => {
      if (closed++ === 0) {
        if (!finished) controller.abort(new Error("closed"));
        sink?.closed();
      }
      return Promise.resolve();
    },
  };
  return {
    transport,
    deliver: (method: string, params: Record<string, unknown>, id = 1) => sink?.payload({ jsonrpc: "2.0", id, method, params }, exchange),
    answer: () => replies.at(-1) as JsonRpcResponse & { result?: Record<string, unknown> },
    /** The client goes away: the exchange aborts and the transport closes. */
    abort: () => (controller.abort(new Error("client left")), void transport.close()),
  };
}

function makeServer() {
  const server = createServer({ name: "s", version: "1.0.0" });
  const ids: string[] = [];
  const signals: AbortSignal[] = [];
  server.tool({ name: "who", inputSchema: { type: "object" } }, (_args, ctx) => {
    ids.push(ctx.session.id, ctx.session.id);
    return "ok";
  });
  server.tool({ name: "roots", inputSchema: { type: "object" } }, async (_args, ctx) => (await ctx.listRoots()).map((root) => root.uri).join(","));
  server.tool({ name: "wait", inputSchema: { type: "object" } }, (_args, ctx) => {
    signals.push(ctx.signal);
    return new Promise(() => {});
  });
  return { server, ids, signals };
}

describe("a single-request transport's session", () => {
  it("answers its request, lists the session until the transport closes, and gives each POST its own id", async () => {
    const { server, ids } = makeServer();
    for (const id of [1, 2]) {
      const post = postTransport();
      const session = await server.connect(post.transport);
      expect(server.sessions()).toEqual([session]);
      post.deliver("tools/call", { name: "who", arguments: {}, _meta: META }, id);
      await flush();
      expect(post.answer()).toMatchObject({ id, result: { content: [{ type: "text", text: "ok" }], resultType: "complete" } });
      expect(server.sessions()).toEqual([]);
      expect(await session.closed).toBeUndefined();
    }
    expect(ids[0]).toBe(ids[1]);
    expect(ids[2]).toBe(ids[3]);
    expect(ids[0]).not.toBe(ids[2]);
  });

  it("keeps feature state per request: roots one POST cached are asked again by the next", async () => {
    const { server } = makeServer();
    const call = async (params: Record<string, unknown>) => {
      const post = postTransport();
      await server.connect(post.transport);
      post.deliver("tools/call", { name: "roots", arguments: {}, _meta: META, ...params });
      await vi.waitFor(() => expect(post.answer()).toBeDefined());
      return post.answer().result;
    };
    const first = await call({});
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { "roots-0": { method: "roots/list" } } });
    // the retry's answer is cached in its session's roots state (the client promised list_changed)
    const retry = await call({ requestState: first?.requestState, inputResponses: { "roots-0": { roots: [{ uri: "file:///r" }] } } });
    expect(retry).toMatchObject({ content: [{ type: "text", text: "file:///r" }] });
    expect(await call({})).toMatchObject({ resultType: "input_required" });
    expect(server.sessions()).toEqual([]);
  });

  it("answers a request without the protocol claim -32600 and refuses messages to the client", async () => {
    const { server } = makeServer();
    const post = postTransport();
    const session = await server.connect(post.transport);
    await expect(session.notify("notifications/message", {})).rejects.toThrow("no standalone stream");
    await expect(session.request("ping")).rejects.toThrow("no standalone stream");
    post.deliver("tools/call", { name: "who", arguments: {} });
    await flush();
    expect(post.answer()).toMatchObject({ id: 1, error: { code: -32600 } });
    await expect(session.notify("notifications/message", {})).rejects.toMatchObject({ code: "CLOSED" });
  });

  it("aborts the handler when the POST goes away or the server closes", async () => {
    const { server, signals } = makeServer();
    const gone = postTransport();
    await server.connect(gone.transport);
    gone.deliver("tools/call", { name: "wait", arguments: {}, _meta: META });
    await flush();
    gone.abort();
    expect(signals[0]?.reason).toEqual(new Error("client left"));
    expect(server.sessions()).toHaveLength(0);
    const open = postTransport();
    await server.connect(open.transport);
    open.deliver("tools/call", { name: "wait", arguments: {}, _meta: META });
    await flush();
    await server.close();
    expect(signals[1]?.aborted).toBe(true);
    expect(signals[1]?.reason).toMatchObject({ code: "CLOSED" });
    expect(server.sessions()).toHaveLength(0);
  });

  it("releases what the server API registered for the session when it closes", async () => {
    const { server } = makeServer();
    const post = postTransport();
    const session = await server.connect(post.transport, { initialized: { clientCapabilities: { elicitation: { url: {} } } } });
    await expect(server.elicitUrl(session, { message: "sign in", url: "https://example.com/a", elicitationId: "e1" })).rejects.toThrow("no standalone stream");
    await session.close();
    expect(server.completeElicitation("e1")).toBe(false);
    expect(server.sessions()).toHaveLength(0);
  });
});
