import { describe, expect, it, vi } from "vitest";
import { createPeer } from "./index";
import { createMemoryTransportPair } from "./testing";
import { createRig, deferred, flush } from "./peer.test-support";

const call = (id: number | string, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

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

describe("Peer: a response too large to read", () => {
  it("fails the request it answers at once with OVERSIZED, not after its timeout; the peer goes on", async () => {
    const [a, b] = createMemoryTransportPair({ wire: true, limits: { maxMessageBytes: 200 } });
    const client = createPeer(a, { requestTimeoutMs: 0 });
    const server = createPeer(b);
    server.handle("big", () => "x".repeat(500));
    server.handle("small", () => "ok");
    await server.start();
    await client.start();
    const failure = await client.request("big").then(() => undefined, (error: unknown) => error);
    expect(failure).toMatchObject({ name: "RequestError", code: "OVERSIZED", method: "big", message: expect.stringContaining("raise maxMessageBytes") });
    expect(await client.request("small")).toBe("ok");
    await client.close();
  });
});
