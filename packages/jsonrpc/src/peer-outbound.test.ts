import { describe, expect, it, vi } from "vitest";
import { createPeer, RequestError } from "./index";
import { createMemoryTransportPair } from "./testing";
import { cancellation, createRig, deferred, flush } from "./peer.test-support";

const call = (id: number | string, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

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
