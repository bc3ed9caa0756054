/**
 * Every example of the JSON-RPC 2.0 specification, section 7, run through the whole stack:
 * decode, deliverFrame, a Peer with the spec's methods, and the exchange's reply.
 */
import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, Transport, TransportSink } from "./index";
import { createPeer, decode, deliverFrame, JsonRpcError } from "./index";

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function createServer() {
  let sink: TransportSink | undefined;
  const transport: Transport = {
    start: async (s) => void (sink = s),
    send: async () => undefined,
    close: async () => sink?.closed(),
  };
  const peer = createPeer(transport);
  const notified: unknown[] = [];
  peer.handle("subtract", (params) => {
    if (Array.isArray(params)) return (params[0] as number) - (params[1] as number);
    const named = params as { minuend: number; subtrahend: number };
    return named.minuend - named.subtrahend;
  });
  peer.handle("sum", (params) => (params as number[]).reduce((a, b) => a + b, 0));
  peer.handle("get_data", () => ["hello", 5]);
  for (const method of ["update", "foobar", "notify_hello", "notify_sum"]) {
    peer.handleNotification(method, (params) => void notified.push([method, params]));
  }
  await peer.start();
  /** Sends one frame of text; resolves with every reply it got. */
  async function send(text: string): Promise<JsonRpcPayload[]> {
    const replies: JsonRpcPayload[] = [];
    const exchange: Exchange = {
      signal: new AbortController().signal,
      info: { transport: "test" },
      reply: async (payload) => void replies.push(JSON.parse(JSON.stringify(payload)) as JsonRpcPayload),
    };
    deliverFrame(decode(text), sink as TransportSink, exchange);
    await settle();
    return replies;
  }
  return { send, notified };
}

const error = (code: number, id: string | number | null) => ({ jsonrpc: "2.0", id, error: { code, message: expect.any(String) } });

describe("JSON-RPC 2.0 section 7 examples", () => {
  it("rpc call with positional parameters", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}')).toEqual([{ jsonrpc: "2.0", result: 19, id: 1 }]);
    expect(await server.send('{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}')).toEqual([{ jsonrpc: "2.0", result: -19, id: 2 }]);
  });

  it("rpc call with named parameters", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}')).toEqual([{ jsonrpc: "2.0", result: 19, id: 3 }]);
    expect(await server.send('{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}')).toEqual([{ jsonrpc: "2.0", result: 19, id: 4 }]);
  });

  it("a notification", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}')).toEqual([]);
    expect(await server.send('{"jsonrpc": "2.0", "method": "foobar"}')).toEqual([]);
    expect(server.notified).toEqual([["update", [1, 2, 3, 4, 5]], ["foobar", undefined]]);
  });

  it("rpc call of non-existent method", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": "foobar", "id": "1"}')).toEqual([error(-32601, "1")]);
  });

  it("rpc call with invalid JSON", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]')).toEqual([error(-32700, null)]);
  });

  it("rpc call with invalid Request object", async () => {
    const server = await createServer();
    expect(await server.send('{"jsonrpc": "2.0", "method": 1, "params": "bar"}')).toEqual([error(-32600, null)]);
  });

  it("rpc call Batch, invalid JSON", async () => {
    const server = await createServer();
    const text = '[\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n  {"jsonrpc": "2.0", "method"\n]';
    expect(await server.send(text)).toEqual([error(-32700, null)]);
  });

  it("rpc call with an empty Array", async () => {
    const server = await createServer();
    expect(await server.send("[]")).toEqual([error(-32600, null)]);
  });

  it("rpc call with an invalid Batch (but not empty)", async () => {
    const server = await createServer();
    expect(await server.send("[1]")).toEqual([[error(-32600, null)]]);
  });

  it("rpc call with invalid Batch", async () => {
    const server = await createServer();
    expect(await server.send("[1,2,3]")).toEqual([[error(-32600, null), error(-32600, null), error(-32600, null)]]);
  });

  it("rpc call Batch", async () => {
    const server = await createServer();
    const replies = await server.send(`[
      {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
      {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
      {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
      {"foo": "boo"},
      {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
      {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]`);
    expect(replies).toHaveLength(1);
    // The spec lets a batch's responses come in any order.
    expect(replies[0]).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", result: 7, id: "1" },
        { jsonrpc: "2.0", result: 19, id: "2" },
        error(-32600, null),
        error(-32601, "5"),
        { jsonrpc: "2.0", result: ["hello", 5], id: "9" },
      ]),
    );
    expect(replies[0]).toHaveLength(5);
    expect(server.notified).toEqual([["notify_hello", [7]]]);
  });

  it("rpc call Batch (all notifications)", async () => {
    const server = await createServer();
    const text = '[{"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]}, {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}]';
    expect(await server.send(text)).toEqual([]);
    expect(server.notified).toHaveLength(2);
  });
});

describe("the spec's error codes", () => {
  it("answers a handler that throws a plain error with -32603", async () => {
    const server = await createServer();
    expect(JsonRpcError.from(new Error("x")).code).toBe(-32603);
    expect(await server.send('{"jsonrpc": "2.0", "method": "sum", "params": {"a": 1}, "id": 1}')).toEqual([error(-32603, 1)]);
  });
});
