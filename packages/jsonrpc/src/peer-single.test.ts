import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, JsonRpcRequest, RequestContext, SingleRequestOwner, Transport } from "./index";
import { abortSingleRequest, createSingleResponder, isSingleRequestTransport, JsonRpcError } from "./index";
import { createLogger, deferred, flush } from "./peer.test-support";

/** An exchange that records what was replied and when it was finished; `failOnce` rejects the first reply. */
function createExchange(failOnce = false) {
  const controller = new AbortController();
  const replies: JsonRpcPayload[] = [];
  let finished = 0;
  let failures = failOnce ? 1 : 0;
  const exchange: Exchange = {
    info: { transport: "test" },
    signal: controller.signal,
    reply(payload) {
      if (failures-- > 0) return Promise.reject(new TypeError("cannot encode"));
      replies.push(payload);
      return Promise.resolve();
    },
    finish: () => void finished++,
  };
  return { exchange, controller, replies, finished: () => finished };
}

function owner(serve: (request: JsonRpcRequest, context: RequestContext) => unknown): SingleRequestOwner & { isClosed: boolean } {
  return { isClosed: false, serve };
}

const request = (params?: unknown): JsonRpcRequest => ({ jsonrpc: "2.0", id: 3, method: "m", ...(params === undefined ? {} : { params }) }) as JsonRpcRequest;

describe("a single request answered without a peer", () => {
  it("answers a plain value at once, undefined as null, and finishes the frame after the reply", async () => {
    const logger = createLogger();
    const respond = createSingleResponder(logger);
    const a = createExchange();
    respond(request({ x: 1 }), a.exchange, owner((r) => r.params));
    await flush();
    expect(a.replies).toEqual([{ jsonrpc: "2.0", id: 3, result: { x: 1 } }]);
    expect(a.finished()).toBe(1);
    const b = createExchange();
    respond(request(), b.exchange, owner(() => Promise.resolve(undefined)));
    await flush();
    expect(b.replies).toEqual([{ jsonrpc: "2.0", id: 3, result: null }]);
    expect(b.finished()).toBe(1);
  });

  it("answers a JsonRpcError as itself and anything else thrown as -32603, logged", async () => {
    const logger = createLogger();
    const respond = createSingleResponder(logger);
    const a = createExchange();
    respond(request(), a.exchange, owner(() => Promise.reject(new JsonRpcError(-32602, "bad", { at: 1 }))));
    const b = createExchange();
    respond(request(), b.exchange, owner(() => {
      throw new Error("bug");
    }));
    await flush();
    expect(a.replies).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: -32602, message: "bad", data: { at: 1 } } }]);
    expect(b.replies).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Internal error" } }]);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("replaces a result that cannot be serialised with -32603 on the same exchange", async () => {
    const logger = createLogger();
    const a = createExchange(true);
    createSingleResponder(logger)(request(), a.exchange, owner(() => ({ n: 1n })));
    await flush();
    expect(a.replies).toEqual([{ jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Internal error" } }]);
    expect(a.finished()).toBe(1);
  });

  it("drops the answer when the exchange aborted or the owner closed, and still finishes the frame", async () => {
    const respond = createSingleResponder(createLogger());
    const a = createExchange();
    const late = deferred();
    let signal: AbortSignal | undefined;
    respond(request(), a.exchange, owner((_r, ctx) => ((signal = ctx.signal), late.promise)));
    a.controller.abort(new Error("client left"));
    expect(signal?.aborted).toBe(true);
    late.resolve("too late");
    await flush();
    expect(a.replies).toEqual([]);
    expect(a.finished()).toBe(1);
    const b = createExchange();
    const closing = owner(() => "never sent");
    closing.isClosed = true;
    respond(request(), b.exchange, closing);
    await flush();
    expect(b.replies).toEqual([]);
    expect(b.finished()).toBe(1);
  });

  it("sends related notifications on the exchange, refuses requests, and aborts on close with CLOSED", async () => {
    const respond = createSingleResponder(createLogger());
    const a = createExchange();
    const done = deferred();
    let context: RequestContext | undefined;
    respond(request(), a.exchange, owner((_r, ctx) => ((context = ctx), done.promise)));
    await context?.notify("notifications/progress", { progress: 1 });
    await expect(context?.request("sampling/createMessage")).rejects.toMatchObject({ code: "CLOSED" });
    const signal = context?.signal;
    abortSingleRequest(context as RequestContext, new Error("gone"));
    expect(signal?.reason).toMatchObject({ code: "CLOSED", cause: new Error("gone") });
    done.resolve("x");
    await flush();
    expect(a.replies).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }, { jsonrpc: "2.0", id: 3, result: "x" }]);
  });

  it("recognises a single-request transport by its marker only", () => {
    const base: Transport = { start: () => Promise.resolve(), send: () => Promise.resolve(), close: () => Promise.resolve() };
    expect(isSingleRequestTransport(base)).toBe(false);
    expect(isSingleRequestTransport({ ...base, singleRequest: true } as Transport)).toBe(true);
  });
});
