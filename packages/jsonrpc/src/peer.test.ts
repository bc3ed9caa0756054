import { describe, expect, it, vi } from "vitest";
import type { RequestContext } from "./index";
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

describe("Peer: outbound requests", () => {
  it("correlates responses by id, in any order", async () => {
    const [a, b] = createMemoryTransportPair();
    const server = createPeer(b);
    const gates = new Map<number, ReturnType<typeof deferred>>();
    server.handle("slow", (params) => {
      const gate = deferred();
      gates.set((params as number[])[0] as number, gate);
      return gate.promise;
    });
    const client = createPeer(a);
    await server.start();
    await client.start();
    const results = [client.request("slow", [1]), client.request("slow", [2]), client.request("slow", [3])];
    await flush();
    gates.get(3)?.resolve("c");
    gates.get(1)?.resolve("a");
    gates.get(2)?.resolve("b");
    await expect(Promise.all(results)).resolves.toEqual(["a", "b", "c"]);
  });

  it("rejects with a TIMEOUT RequestError and sends the cancellation", async () => {
    const rig = await createRig({ cancellation, requestTimeoutMs: 20 });
    await rig.server.start();
    const outcome = rig.server.request("never", { a: 1 }).catch((error: unknown) => error);
    const sent = (await rig.next()) as { id: number };
    expect(sent).toEqual({ jsonrpc: "2.0", id: expect.any(Number), method: "never", params: { a: 1 } });
    const error = await outcome;
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: "TIMEOUT", method: "never" });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent.id, reason: "timeout" } });
    await rig.send({ jsonrpc: "2.0", id: sent.id, result: "too late" });
    await flush();
    expect(rig.logger.warn).toHaveBeenCalledWith(expect.stringContaining("UNKNOWN_RESPONSE"), expect.anything());
  });

  it("lets a per-request timeoutMs override the default, 0 meaning none", async () => {
    const rig = await createRig({ requestTimeoutMs: 0 });
    await rig.server.start();
    const quick = rig.server.request("never", undefined, { timeoutMs: 10 });
    await expect(quick).rejects.toMatchObject({ code: "TIMEOUT" });
    const patient = rig.server.request("eventually");
    const sent = (await rig.next()) as { id: number };
    await rig.next(); // the first request
    await rig.send({ jsonrpc: "2.0", id: sent.id + 1, result: "ok" });
    await expect(patient).resolves.toBe("ok");
  });

  it("rejects with ABORTED when the caller's signal aborts, and sends the cancellation with the reason", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const controller = new AbortController();
    const outcome = rig.server.request("long", undefined, { signal: controller.signal }).catch((error: unknown) => error);
    const sent = (await rig.next()) as { id: number };
    controller.abort(new Error("user pressed stop"));
    expect(await outcome).toMatchObject({ name: "RequestError", code: "ABORTED", method: "long" });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent.id, reason: "user pressed stop" } });
  });

  it("does not send a request whose signal is already aborted", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    await expect(rig.server.request("x", undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "ABORTED" });
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("sends no cancellation when none is configured", async () => {
    const rig = await createRig();
    await rig.server.start();
    const controller = new AbortController();
    const outcome = rig.server.request("long", undefined, { signal: controller.signal });
    await rig.next();
    controller.abort();
    await expect(outcome).rejects.toMatchObject({ code: "ABORTED" });
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("reports a response to an unknown id and an error with id null, and goes on", async () => {
    const rig = await createRig();
    rig.server.handle("ping", () => "pong");
    await rig.server.start();
    await rig.send({ jsonrpc: "2.0", id: 999, result: 1 });
    await rig.send({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    await rig.send(call(1, "ping"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, result: "pong" });
    expect(rig.logger.warn.mock.calls.map((c) => c[0])).toEqual([
      expect.stringContaining("UNKNOWN_RESPONSE"),
      expect.stringContaining("Parse error"),
    ]);
  });

  it("tells track() the id and restarts the timeout on resetTimeout()", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const rig = await createRig({ requestTimeoutMs: 1000 });
      await rig.server.start();
      let tracked: { id: number | string; resetTimeout(): void } | undefined;
      const kept = rig.server.request("progressing", undefined, { track: (request) => (tracked = request) });
      const dropped = rig.server.request("silent").catch((error: unknown) => error);
      const sent = (await rig.next()) as { id: number };
      expect(tracked?.id).toBe(sent.id);
      await vi.advanceTimersByTimeAsync(900);
      tracked?.resetTimeout();
      await vi.advanceTimersByTimeAsync(900);
      expect(await dropped).toMatchObject({ code: "TIMEOUT", method: "silent" });
      await rig.send({ jsonrpc: "2.0", id: sent.id, result: "done" });
      await expect(kept).resolves.toBe("done");
      tracked?.resetTimeout();
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects with the transport's error when the send fails", async () => {
    const failure = new Error("pipe broken");
    const peer = createPeer({ start: async () => undefined, send: () => Promise.reject(failure), close: async () => undefined });
    await peer.start();
    await expect(peer.request("x")).rejects.toBe(failure);
    await expect(peer.notify("y")).rejects.toBe(failure);
  });

  it("throws a TypeError for a bad timeout", async () => {
    const rig = await createRig();
    expect(() => rig.server.request("x", undefined, { timeoutMs: -1 })).toThrow(TypeError);
    expect(() => createPeer(rig.raw, { requestTimeoutMs: Number.NaN })).toThrow(TypeError);
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

describe("Peer: related messages go through the exchange", () => {
  it("sends ctx.notify and ctx.request on the request's exchange", async () => {
    const replies: unknown[] = [];
    const sent: unknown[] = [];
    let deliver: ((payload: unknown) => void) | undefined;
    const peer = createPeer({
      start: async (sink) => {
        deliver = (payload) =>
          sink.payload(payload as never, {
            signal: new AbortController().signal,
            info: { transport: "test" },
            reply: async (p) => {
              replies.push(p);
              const m = p as { id?: number; method?: string };
              if (m.method === "sampling/create" && m.id !== undefined) queueMicrotask(() => deliver?.({ jsonrpc: "2.0", id: m.id, result: "sampled" }));
            },
          });
      },
      send: async (payload) => void sent.push(payload),
      close: async () => undefined,
    });
    peer.handle("tool", async (_params, ctx) => {
      await ctx.notify("progress", { done: 1 });
      return ctx.request("sampling/create", { q: 1 });
    });
    await peer.start();
    deliver?.(call(1, "tool"));
    await flush();
    await flush();
    expect(sent).toEqual([]);
    expect(replies).toEqual([
      { jsonrpc: "2.0", method: "progress", params: { done: 1 } },
      { jsonrpc: "2.0", id: expect.any(Number), method: "sampling/create", params: { q: 1 } },
      { jsonrpc: "2.0", id: 1, result: "sampled" },
    ]);
  });

  it("aborts the handler's signal when the exchange's signal aborts, and sends nothing", async () => {
    const replies: unknown[] = [];
    const stream = new AbortController();
    let reason: unknown;
    const gate = deferred<string>();
    const peer = createPeer({
      start: async (sink) => {
        queueMicrotask(() =>
          sink.payload(call(1, "long") as never, { signal: stream.signal, info: { transport: "test" }, reply: async (p) => void replies.push(p) }),
        );
      },
      send: async () => undefined,
      close: async () => undefined,
    });
    peer.handle("long", (_params, ctx) => {
      ctx.signal.addEventListener("abort", () => (reason = ctx.signal.reason));
      return gate.promise;
    });
    await peer.start();
    await flush();
    stream.abort(new Error("client went away"));
    expect(reason).toEqual(new Error("client went away"));
    gate.resolve("result");
    await flush();
    expect(replies).toEqual([]);
  });
});

describe("Peer: life cycle", () => {
  it("rejects pending requests with CLOSED, aborts running handlers, and resolves closed", async () => {
    const rig = await createRig();
    let handlerReason: unknown;
    const gate = deferred();
    rig.server.handle("long", (_params, ctx) => {
      ctx.signal.addEventListener("abort", () => (handlerReason = ctx.signal.reason));
      return gate.promise;
    });
    await rig.server.start();
    await rig.send(call(1, "long"));
    const pending = rig.server.request("waiting").catch((error: unknown) => error);
    await rig.next();
    const reason = new Error("shutting down");
    await rig.server.close(reason);
    expect(await pending).toMatchObject({ name: "RequestError", code: "CLOSED", method: "waiting", cause: reason });
    expect(handlerReason).toMatchObject({ name: "RequestError", code: "CLOSED", method: "long", cause: reason });
    await expect(rig.server.closed).resolves.toBe(reason);
    expect(rig.closedCount()).toBe(1);
    gate.resolve("late");
    await flush();
    expect(rig.pending()).toEqual([]);
    await expect(rig.server.request("after")).rejects.toMatchObject({ code: "CLOSED" });
    await expect(rig.server.notify("after")).rejects.toMatchObject({ code: "CLOSED" });
    await rig.server.close();
  });

  it("closes when the other side closes the transport", async () => {
    const rig = await createRig();
    await rig.server.start();
    const pending = rig.server.request("x");
    await rig.next();
    await rig.raw.close();
    await expect(pending).rejects.toMatchObject({ code: "CLOSED" });
    await expect(rig.server.closed).resolves.toBeUndefined();
  });

  it("refuses a second start, a start after close, and duplicate handlers", async () => {
    const rig = await createRig();
    const off = rig.server.handle("a", () => 1);
    expect(() => rig.server.handle("a", () => 2)).toThrow(TypeError);
    off();
    expect(() => rig.server.handle("a", () => 2)).not.toThrow();
    rig.server.handleNotification("n", () => undefined);
    expect(() => rig.server.handleNotification("n", () => undefined)).toThrow(TypeError);
    expect(() => rig.server.handle("", () => 1)).toThrow(TypeError);
    await rig.server.start();
    await expect(rig.server.start()).rejects.toThrow(TypeError);
    const [a] = createMemoryTransportPair();
    const closedPeer = createPeer(a);
    await closedPeer.close();
    await expect(closedPeer.start()).rejects.toThrow(TypeError);
  });

  it("unregistering a handler makes its method unknown", async () => {
    const rig = await createRig();
    const off = rig.server.handle("a", () => 1);
    await rig.server.start();
    off();
    off();
    await rig.send(call(1, "a"));
    expect(await rig.next()).toMatchObject({ error: { code: -32601 } });
  });

  it("reports transport faults and notification handler failures to the logger", async () => {
    const rig = await createRig();
    rig.server.handleNotification("sync", () => {
      throw new Error("sync failure");
    });
    rig.server.handleNotification("async", async () => {
      throw new Error("async failure");
    });
    await rig.server.start();
    await rig.send({ jsonrpc: "2.0", method: "sync" });
    await rig.send({ jsonrpc: "2.0", method: "async" });
    await rig.send({ jsonrpc: "2.0", method: "unknown notifications are ignored" });
    await rig.raw.send("not json" as never).catch(() => undefined);
    await rig.send([]);
    await flush();
    expect(rig.logger.error.mock.calls.map((c) => (c[1] as Error).message)).toEqual(["sync failure", "async failure"]);
    expect(rig.logger.warn).toHaveBeenCalledWith(expect.stringContaining("BAD_FRAME"), expect.anything());
  });
});

describe("Peer: replies that cannot be sent", () => {
  it("answers -32603 when a result cannot be serialised, and logs it", async () => {
    const rig = await createRig();
    rig.server.handle("big", () => ({ n: 10n }));
    rig.server.handle("cycle", () => {
      const o: Record<string, unknown> = {};
      o["self"] = o;
      return o;
    });
    await rig.server.start();
    await rig.send(call(1, "big"));
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
    await rig.send([call(2, "cycle"), call(3, "big"), call(4, "missing")]);
    expect(await rig.next()).toEqual([
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32603, message: "Internal error" } },
      { jsonrpc: "2.0", id: 4, error: expect.objectContaining({ code: -32601 }) },
    ]);
    expect(rig.logger.error).toHaveBeenCalledTimes(3);
  });

  it("reports a reply that fails for another reason, never throws", async () => {
    const logger = { warn: vi.fn(), error: vi.fn() };
    const peer = createPeer(
      {
        start: async (sink) => {
          queueMicrotask(() => {
            const exchange = { signal: new AbortController().signal, info: { transport: "t" } };
            sink.payload(call(1, "x") as never, { ...exchange, reply: () => Promise.reject(new Error("gone")) });
            sink.payload(call(2, "x") as never, {
              ...exchange,
              reply: () => {
                throw new Error("sync gone");
              },
            });
          });
        },
        send: async () => undefined,
        close: async () => undefined,
      },
      { logger },
    );
    peer.handle("x", () => "y");
    await peer.start();
    await flush();
    expect(logger.warn.mock.calls.map((c) => (c[1] as Error).message).sort()).toEqual(["gone", "sync gone"]);
  });
});
