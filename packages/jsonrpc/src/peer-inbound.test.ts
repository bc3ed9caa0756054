import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, RequestContext, Transport, TransportSink } from "./index";
import { createPeer, JsonRpcError, RequestError } from "./index";
import { createMemoryTransportPair } from "./testing";
import { cancellation, createRig, deferred, flush } from "./peer.test-support";

const call = (id: number | string, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

describe("Peer: inbound requests", () => {
  it("answers by method with the handler's result, and null for undefined", async () => {
    const rig = await createRig();
    rig.server.handle("echo", (params) => params);
    rig.server.handle("nothing", () => undefined);
    rig.server.handle("later", async () => ({ ok: true }));
    await rig.server.start();
    await rig.send(call(1, "echo", { a: [1] }));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, result: { a: [1] } });
    await rig.send(call(2, "nothing"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 2, result: null });
    await rig.send(call("x", "later"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: "x", result: { ok: true } });
  });

  it("answers an unknown method with -32601", async () => {
    const rig = await createRig();
    await rig.server.start();
    await rig.send(call(1, "nope"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32601, message: "Method not found: nope" } });
  });

  it("passes a thrown JsonRpcError through, with its data", async () => {
    const rig = await createRig();
    rig.server.handle("bad", () => {
      throw new JsonRpcError(-32602, "Invalid params: x is required", { field: "x" });
    });
    rig.server.handle("badLater", () => Promise.reject(new JsonRpcError(-32001, "later")));
    await rig.server.start();
    await rig.send(call(1, "bad"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: x is required", data: { field: "x" } } });
    await rig.send(call(2, "badLater"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32001, message: "later" } });
    expect(rig.logger.error).not.toHaveBeenCalled();
  });

  it("answers any other exception with a generic -32603 and logs the original", async () => {
    const rig = await createRig();
    const secret = new Error("db password is hunter2");
    rig.server.handle("sync", () => {
      throw secret;
    });
    rig.server.handle("async", async () => {
      throw "a string";
    });
    await rig.server.start();
    await rig.send(call(1, "sync"));
    const reply = await rig.next();
    expect(reply).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    expect(JSON.stringify(reply)).not.toContain("hunter2");
    await rig.send(call(2, "async"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } });
    expect(rig.logger.error.mock.calls.map((c) => c[1])).toEqual([secret, "a string"]);
  });

  it("finishes the frame of a promised answer once, without a reply, when answering it fails inside the peer", async () => {
    let sink: TransportSink | undefined;
    const transport: Transport = { start: async (s) => void (sink = s), send: async () => undefined, close: async () => sink?.closed() };
    const failure = new Error("the logger is broken");
    const logged: unknown[] = [];
    const logger = {
      warn() {},
      error(_message: string, detail?: unknown) {
        logged.push(detail);
        if (logged.length === 1) throw failure; // logging the handler's rejection throws: no response can be built
      },
    };
    const peer = createPeer(transport, { logger });
    peer.handle("later", async () => {
      throw new Error("boom");
    });
    peer.handle("fine", async () => "ok");
    await peer.start();
    const replies: unknown[] = [];
    let finished = 0;
    const exchangeOf = (): Exchange => ({ signal: new AbortController().signal, info: { transport: "test" }, reply: async (p) => void replies.push(p), finish: () => void finished++ });
    sink?.payload(call(1, "later") as JsonRpcPayload, exchangeOf());
    await flush();
    expect(replies).toEqual([]);
    expect(finished).toBe(1);
    expect(logged).toEqual([expect.objectContaining({ message: "boom" }), failure]);
    sink?.payload(call(2, "fine") as JsonRpcPayload, exchangeOf());
    await flush();
    expect(replies).toEqual([{ jsonrpc: "2.0", id: 2, result: "ok" }]);
    expect(finished).toBe(2);
  });

  it("refuses a duplicate in-flight id with -32600 while the first keeps running", async () => {
    const rig = await createRig();
    const gate = deferred<string>();
    let runs = 0;
    rig.server.handle("slow", () => {
      runs++;
      return gate.promise;
    });
    await rig.server.start();
    await rig.send(call(7, "slow"));
    await rig.send(call(7, "slow"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 7, error: { code: -32600, message: expect.stringContaining("already in flight") } });
    gate.resolve("done");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 7, result: "done" });
    expect(runs).toBe(1);
    await rig.send(call(7, "slow"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 7, result: "done" });
  });

  it("treats the string id \"1\" and the number id 1 as different requests", async () => {
    const rig = await createRig();
    const gate = deferred();
    rig.server.handle("slow", () => gate.promise.then(() => "ok"));
    await rig.server.start();
    await rig.send(call(1, "slow"));
    await rig.send(call("1", "slow"));
    gate.resolve(undefined);
    const replies = [await rig.next(), await rig.next()];
    expect(replies).toEqual(expect.arrayContaining([{ jsonrpc: "2.0", id: 1, result: "ok" }, { jsonrpc: "2.0", id: "1", result: "ok" }]));
  });

  it("gives handlers the id, method, exchange info and inBatch", async () => {
    const rig = await createRig({}, { sessionId: "s-1", principal: { subject: "alice", scopes: ["read"], claims: {} } });
    const seen: RequestContext[] = [];
    rig.server.handle("who", (_params, context) => {
      seen.push(context);
      return context.info.principal?.subject;
    });
    await rig.server.start();
    await rig.send(call(3, "who"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 3, result: "alice" });
    await rig.send([call(4, "who")]);
    expect(await rig.next()).toEqual([{ jsonrpc: "2.0", id: 4, result: "alice" }]);
    expect(seen.map((c) => [c.id, c.method, c.info.transport, c.info.sessionId, c.inBatch])).toEqual([
      [3, "who", "memory", "s-1", false],
      [4, "who", "memory", "s-1", true],
    ]);
  });
});

describe("Peer: batches", () => {
  it("runs elements concurrently and answers once, each request id exactly once, never a notification", async () => {
    const rig = await createRig();
    const gates = [deferred<number>(), deferred<number>()];
    let started = 0;
    const notes: unknown[] = [];
    rig.server.handle("wait", (params) => {
      started++;
      return (gates[(params as number[])[0] as number] as { promise: Promise<number> }).promise;
    });
    rig.server.handle("now", () => "now");
    rig.server.handleNotification("note", (params) => void notes.push(params));
    await rig.server.start();
    await rig.send([call(1, "wait", [0]), { jsonrpc: "2.0", method: "note", params: [1] }, call(2, "wait", [1]), call(3, "now"), call(4, "missing")]);
    await flush();
    expect(started).toBe(2);
    gates[1]?.resolve(20);
    await flush();
    expect(rig.pending()).toEqual([]);
    gates[0]?.resolve(10);
    expect(await rig.next()).toEqual([
      { jsonrpc: "2.0", id: 1, result: 10 },
      { jsonrpc: "2.0", id: 2, result: 20 },
      { jsonrpc: "2.0", id: 3, result: "now" },
      { jsonrpc: "2.0", id: 4, error: { code: -32601, message: "Method not found: missing" } },
    ]);
    expect(notes).toEqual([[1]]);
  });

  it("settles responses that arrive in a batch", async () => {
    const [a, b] = createMemoryTransportPair();
    const client = createPeer(a);
    const raw: unknown[] = [];
    await b.start({ payload: (p) => void raw.push(p), error: () => undefined, closed: () => undefined });
    await client.start();
    const first = client.request("one");
    const second = client.request("two");
    await flush();
    const ids = (raw as { id: number }[]).map((m) => m.id);
    await b.send([
      { jsonrpc: "2.0", id: ids[1] as number, result: 2 },
      { jsonrpc: "2.0", id: ids[0] as number, error: { code: 5, message: "no" } },
    ]);
    await expect(second).resolves.toBe(2);
    await expect(first).rejects.toMatchObject({ name: "JsonRpcError", code: 5, message: "no" });
  });
});

describe("Peer: inbound cancellation", () => {
  it("aborts the handler's signal and sends no response for the cancelled request", async () => {
    const rig = await createRig({ cancellation });
    const gate = deferred<string>();
    let reason: unknown;
    rig.server.handle("long", (_params, context) => {
      context.signal.addEventListener("abort", () => (reason = context.signal.reason));
      return gate.promise;
    });
    rig.server.handle("ping", () => "pong");
    await rig.server.start();
    await rig.send(call(5, "long"));
    await flush();
    await rig.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "changed my mind" } });
    await flush();
    expect(reason).toBeInstanceOf(RequestError);
    expect((reason as RequestError).message).toContain("changed my mind");
    gate.resolve("ignored");
    await flush();
    await rig.send(call(6, "ping"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 6, result: "pong" });
    expect(rig.pending()).toEqual([]);
  });

  it("also aborts a signal first read after the cancellation", async () => {
    const rig = await createRig({ cancellation });
    const gate = deferred();
    let context: RequestContext | undefined;
    rig.server.handle("long", (_params, ctx) => {
      context = ctx;
      return gate.promise;
    });
    await rig.server.start();
    await rig.send(call(1, "long"));
    await rig.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await flush();
    expect(context?.signal.aborted).toBe(true);
  });

  it("drops the cancelled response from a batch reply and tells the exchange", async () => {
    const rig = await createRig({ cancellation });
    const gate = deferred<string>();
    rig.server.handle("long", () => gate.promise);
    rig.server.handle("quick", () => "q");
    await rig.server.start();
    await rig.send([call(1, "long"), call(2, "quick")]);
    await rig.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } });
    await flush();
    gate.resolve("late");
    expect(await rig.next()).toEqual([{ jsonrpc: "2.0", id: 2, result: "q" }]);
  });

  it("ignores cancellations of unknown requests and still runs a registered handler for the method", async () => {
    const rig = await createRig({ cancellation });
    const seen: unknown[] = [];
    rig.server.handleNotification("notifications/cancelled", (params) => void seen.push(params));
    rig.server.handle("ping", () => "pong");
    await rig.server.start();
    await rig.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 42 } });
    await rig.send(call(1, "ping"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, result: "pong" });
    expect(seen).toEqual([{ requestId: 42 }]);
  });
});
