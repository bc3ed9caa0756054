import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcId, JsonRpcPayload, TransportSink } from "./index";
import { decode, deliverFrame, TransportError } from "./index";

function recorder(options: { failReply?: boolean; drop?: boolean } = {}) {
  const replies: JsonRpcPayload[] = [];
  const dropped: JsonRpcId[] = [];
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
    ...(options.drop ? { drop: (id: JsonRpcId) => void dropped.push(id) } : {}),
  };
  const sink: TransportSink = {
    payload: (payload, via) => void delivered.push({ payload, exchange: via }),
    error: (error) => void errors.push(error),
    closed: () => undefined,
  };
  return { replies, dropped, delivered, errors, exchange, sink };
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

  it("sends the invalid errors alone when the valid part expects no reply", () => {
    const r = recorder();
    deliverFrame(decode(JSON.stringify([{ jsonrpc: "2.0", method: "n" }, 5, response(9)])), r.sink, r.exchange);
    expect(r.replies).toEqual([[{ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) }]]);
    expect(r.delivered).toEqual([{ payload: [{ jsonrpc: "2.0", method: "n" }, response(9)], exchange: r.exchange }]);
  });

  it("delivers nothing when every element is invalid, and answers with every error", () => {
    const r = recorder();
    deliverFrame(decode("[1,2]"), r.sink, r.exchange);
    expect(r.delivered).toEqual([]);
    expect(r.replies).toEqual([[expect.objectContaining({ id: null }), expect.objectContaining({ id: null })]]);
  });

  it("sends the invalid errors once every request of the batch was dropped", async () => {
    const r = recorder({ drop: true });
    deliverFrame(decode(JSON.stringify([request(1), 5, request(2)])), r.sink, r.exchange);
    const { exchange } = r.delivered[0] as { exchange: Exchange };
    exchange.drop?.(1);
    expect(r.replies).toEqual([]);
    exchange.drop?.(2);
    await flush();
    expect(r.dropped).toEqual([1, 2]);
    expect(r.replies).toEqual([[expect.objectContaining({ id: null })]]);
    await exchange.reply([response(1)]);
    expect(r.replies).toHaveLength(2);
  });

  it("gives no reply at all to an all-notification batch", () => {
    const r = recorder();
    deliverFrame(decode('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]'), r.sink, r.exchange);
    expect(r.replies).toEqual([]);
    expect(r.delivered).toHaveLength(1);
    expect(r.errors).toEqual([]);
  });
});
