import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, TransportSink } from "./index";
import { decode, deliverFrame, TransportError } from "./index";

function recorder(options: { failReply?: boolean } = {}) {
  const replies: JsonRpcPayload[] = [];
  let finished = 0;
  const delivered: { payload: JsonRpcPayload; exchange: Exchange }[] = [];
  const errors: TransportError[] = [];
  const exchange: Exchange = {
    signal: new AbortController().signal,
    info: { transport: "test", sessionId: "s" },
    reply: (payload) => {
      if (options.failReply) return Promise.reject(new Error("stream gone"));
      replies.push(payload);
      return Promise.resolve();
    },
    finish: () => void finished++,
  };
  const sink: TransportSink = {
    payload: (payload, via) => void delivered.push({ payload, exchange: via }),
    error: (error) => void errors.push(error),
    closed: () => undefined,
  };
  return { replies, finished: () => finished, delivered, errors, exchange, sink };
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const request = (id: number) => ({ jsonrpc: "2.0", id, method: "m" }) as const;
const response = (id: number) => ({ jsonrpc: "2.0", id, result: id }) as const;

describe("deliverFrame", () => {
  it("hands a valid message to the sink with the same exchange", () => {
    const r = recorder();
    deliverFrame(decode(JSON.stringify(request(1))), r.sink, r.exchange);
    expect(r.delivered).toEqual([{ payload: request(1), exchange: r.exchange }]);
    expect(r.replies).toEqual([]);
  });

  it("answers a refused frame on the exchange, reports BAD_FRAME, and never reaches the sink", () => {
    const r = recorder();
    deliverFrame(decode("{oops"), r.sink, r.exchange);
    expect(r.delivered).toEqual([]);
    expect(r.replies).toEqual([{ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.stringContaining("Parse error") } }]);
    expect(r.errors.map((e) => e.code)).toEqual(["BAD_FRAME"]);
  });

  it("reports a failed error reply as WRITE_FAILED", async () => {
    const r = recorder({ failReply: true });
    deliverFrame(decode("[]"), r.sink, r.exchange);
    await flush();
    expect(r.errors.map((e) => e.code)).toEqual(["BAD_FRAME", "WRITE_FAILED"]);
  });

  it("folds the errors of invalid elements into the batch's one reply", async () => {
    const r = recorder();
    deliverFrame(decode(JSON.stringify([request(1), 5, request(2)])), r.sink, r.exchange);
    expect(r.replies).toEqual([]);
    const [{ payload, exchange }] = r.delivered as [{ payload: JsonRpcPayload; exchange: Exchange }];
    expect(payload).toEqual([request(1), request(2)]);
    expect(exchange.info).toBe(r.exchange.info);
    expect(exchange.signal).toBe(r.exchange.signal);
    await exchange.reply({ jsonrpc: "2.0", method: "related" });
    await exchange.reply([response(1), response(2)]);
    expect(r.replies).toEqual([
      { jsonrpc: "2.0", method: "related" },
      [response(1), response(2), { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }],
    ]);
  });

  it("sends the invalid errors alone when the valid part expects no reply, once the sink finishes it", () => {
    const r = recorder();
    deliverFrame(decode(JSON.stringify([{ jsonrpc: "2.0", method: "n" }, 5, response(9)])), r.sink, r.exchange);
    const [{ payload, exchange }] = r.delivered as [{ payload: JsonRpcPayload; exchange: Exchange }];
    expect(payload).toEqual([{ jsonrpc: "2.0", method: "n" }, response(9)]);
    expect(r.replies).toEqual([]);
    exchange.finish?.();
    expect(r.replies).toEqual([[{ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }]]);
  });

  it("delivers nothing when every element is invalid, and answers with every error", () => {
    const r = recorder();
    deliverFrame(decode("[1,2]"), r.sink, r.exchange);
    expect(r.delivered).toEqual([]);
    expect(r.replies).toEqual([[expect.objectContaining({ id: null }), expect.objectContaining({ id: null })]]);
  });

  it("sends the invalid errors alone, then finishes, when the sink finishes the batch without a reply", async () => {
    const r = recorder();
    deliverFrame(decode(JSON.stringify([request(1), 5, request(2)])), r.sink, r.exchange);
    const { exchange } = r.delivered[0] as { exchange: Exchange };
    expect(r.replies).toEqual([]);
    exchange.finish?.();
    await flush();
    expect(r.replies).toEqual([[expect.objectContaining({ id: null })]]);
    expect(r.finished()).toBe(1);
  });

  it("finishes a refused frame itself, once its error reply is written or has failed", async () => {
    const ok = recorder();
    deliverFrame(decode("{oops"), ok.sink, ok.exchange);
    const failing = recorder({ failReply: true });
    deliverFrame(decode("{oops"), failing.sink, failing.exchange);
    await flush();
    expect(ok.finished()).toBe(1);
    expect(failing.finished()).toBe(1);
  });

  it("carries the invalid errors again on a retried batch reply (the -32603 fallback)", async () => {
    const r = recorder();
    let first = true;
    const exchange: Exchange = {
      ...r.exchange,
      reply: (payload) => {
        if (first) {
          first = false;
          return Promise.reject(new TypeError("cannot serialise"));
        }
        return r.exchange.reply(payload);
      },
    };
    deliverFrame(decode(JSON.stringify([request(1), 5])), r.sink, exchange);
    const folding = (r.delivered[0] as { exchange: Exchange }).exchange;
    await expect(folding.reply([response(1)])).rejects.toThrow();
    await folding.reply([response(1)]);
    folding.finish?.();
    await flush();
    expect(r.replies).toEqual([[response(1), expect.objectContaining({ id: null })]]);
    expect(r.finished()).toBe(1);
  });

  it("gives no reply at all to an all-notification batch", () => {
    const r = recorder();
    deliverFrame(decode('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]'), r.sink, r.exchange);
    expect(r.replies).toEqual([]);
    expect(r.delivered).toHaveLength(1);
    expect(r.errors).toEqual([]);
  });
});
