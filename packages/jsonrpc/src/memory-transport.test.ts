import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, TransportError, TransportSink } from "./index";
import { createMemoryTransportPair } from "./testing";

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function recordingSink() {
  const frames: { payload: JsonRpcPayload; exchange: Exchange }[] = [];
  const errors: TransportError[] = [];
  const closed: (Error | undefined)[] = [];
  const sink: TransportSink = {
    payload: (payload, exchange) => void frames.push({ payload, exchange }),
    error: (error) => void errors.push(error),
    closed: (reason) => void closed.push(reason),
  };
  return { sink, frames, errors, closed };
}

const note = (method: string) => ({ jsonrpc: "2.0", method }) as const;

describe("createMemoryTransportPair", () => {
  it("delivers each side's sends to the other side, in order, as wire copies", async () => {
    const [a, b] = createMemoryTransportPair();
    const left = recordingSink();
    const right = recordingSink();
    await a.start(left.sink);
    await b.start(right.sink);
    const sent = { jsonrpc: "2.0", method: "n", params: { x: [1] } } as const;
    await a.send(sent);
    await a.send(note("second"));
    await b.send(note("back"));
    await flush();
    expect(right.frames.map((f) => f.payload)).toEqual([sent, note("second")]);
    expect(right.frames[0]?.payload).not.toBe(sent);
    expect(left.frames.map((f) => f.payload)).toEqual([note("back")]);
  });

  it("queues frames sent before the other side starts", async () => {
    const [a, b] = createMemoryTransportPair();
    await a.send(note("early"));
    const right = recordingSink();
    await b.start(right.sink);
    await flush();
    expect(right.frames.map((f) => f.payload)).toEqual([note("early")]);
  });

  it("routes exchange.reply back to the sender with the receiver's info", async () => {
    const [a, b] = createMemoryTransportPair({ info: [undefined, { sessionId: "abc", principal: { subject: "bob", scopes: [], claims: {} } }] });
    const left = recordingSink();
    const right = recordingSink();
    await a.start(left.sink);
    await b.start(right.sink);
    await a.send({ jsonrpc: "2.0", id: 1, method: "m" });
    await flush();
    const frame = right.frames[0];
    expect(frame?.exchange.info).toEqual({ transport: "memory", sessionId: "abc", principal: { subject: "bob", scopes: [], claims: {} } });
    await frame?.exchange.reply({ jsonrpc: "2.0", id: 1, result: "ok" });
    await flush();
    expect(left.frames.map((f) => f.payload)).toEqual([{ jsonrpc: "2.0", id: 1, result: "ok" }]);
    expect(left.frames[0]?.exchange.info).toEqual({ transport: "memory" });
  });

  it("passes objects by reference with wire: false", async () => {
    const [a, b] = createMemoryTransportPair({ wire: false });
    const right = recordingSink();
    await b.start(right.sink);
    const sent = note("same");
    await a.send(sent);
    await flush();
    expect(right.frames[0]?.payload).toBe(sent);
  });

  it("applies decode limits and answers the refused frame to its sender", async () => {
    const [a, b] = createMemoryTransportPair({ limits: { maxMessageBytes: 200 } });
    const left = recordingSink();
    const right = recordingSink();
    await a.start(left.sink);
    await b.start(right.sink);
    await a.send({ jsonrpc: "2.0", id: 3, method: "m", params: ["x".repeat(300)] });
    await flush();
    expect(right.frames).toEqual([]);
    expect(right.errors.map((e) => e.code)).toEqual(["BAD_FRAME"]);
    expect(left.frames.map((f) => f.payload)).toEqual([{ jsonrpc: "2.0", id: 3, error: expect.objectContaining({ code: -32600 }) }]);
  });

  it("never lets two sides bounce refusals of each other's errors", async () => {
    const [a, b] = createMemoryTransportPair({ limits: { maxMessageBytes: 40 } });
    const left = recordingSink();
    const right = recordingSink();
    await a.start(left.sink);
    await b.start(right.sink);
    await a.send({ jsonrpc: "2.0", id: 3, method: "m", params: ["x".repeat(100)] });
    await flush();
    await flush();
    // b refuses the request and answers; the answer is too large for a, which looks like a
    // response, so a drops it without answering: one refusal on each side, then silence. a reports
    // the id of the response it dropped, so a peer on it would fail request 3 at once.
    expect(right.errors.map((e) => e.code)).toEqual(["BAD_FRAME"]);
    expect(left.errors.map((e) => [e.code, e.responseId])).toEqual([["OVERSIZED", 3]]);
    expect(left.frames).toEqual([]);
    expect(right.frames).toEqual([]);
  });

  it("rejects a send that cannot be encoded", async () => {
    const [a] = createMemoryTransportPair();
    await expect(a.send({ jsonrpc: "2.0", id: 1, result: 1n })).rejects.toThrow(TypeError);
  });

  it("closes both sides once: each sink gets closed exactly once, exchanges abort, sends reject", async () => {
    const [a, b] = createMemoryTransportPair();
    const left = recordingSink();
    const right = recordingSink();
    await a.start(left.sink);
    await b.start(right.sink);
    await a.send(note("x"));
    await flush();
    const exchange = right.frames[0]?.exchange as Exchange;
    const reason = new Error("done");
    await a.close(reason);
    await a.close();
    await b.close();
    expect(left.closed).toEqual([reason]);
    expect(right.closed).toEqual([undefined]);
    expect(exchange.signal.aborted).toBe(true);
    await expect(exchange.reply(note("late"))).rejects.toThrow(/closed/);
    await expect(a.send(note("late"))).rejects.toMatchObject({ name: "TransportError", code: "CLOSED", message: expect.stringMatching(/closed/) });
    await expect(b.send(note("late"))).rejects.toThrow(/closed/);
  });

  it("drops frames in flight when the receiver closes", async () => {
    const [a, b] = createMemoryTransportPair();
    const right = recordingSink();
    await b.start(right.sink);
    const sending = a.send(note("in flight"));
    const closing = b.close();
    await Promise.all([sending, closing]);
    await flush();
    expect(right.frames).toEqual([]);
  });

  it("refuses a second start and a start after close", async () => {
    const [a, b] = createMemoryTransportPair();
    await a.start(recordingSink().sink);
    await expect(a.start(recordingSink().sink)).rejects.toThrow(TypeError);
    await b.close();
    await expect(b.start(recordingSink().sink)).rejects.toThrow(/closed/);
  });
});
