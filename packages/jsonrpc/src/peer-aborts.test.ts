import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { MAX_KEPT_SIGNALS } from "./peer-watch";
import { cancellation, createRig } from "./peer.test-support";

const listeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;

describe("Peer: the abort listeners of outbound requests", () => {
  it("keeps one listener on a signal reused request after request; its abort cancels only the request running then", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const controller = new AbortController();
    for (const method of ["first", "second"]) {
      const answered = rig.server.request(method, undefined, { signal: controller.signal });
      const sent = (await rig.next()) as { id: number };
      await rig.send({ jsonrpc: "2.0", id: sent.id, result: method });
      await expect(answered).resolves.toBe(method);
      expect(listeners(controller.signal)).toBe(1);
    }
    const running = rig.server.request("third", undefined, { signal: controller.signal }).catch((error: unknown) => error);
    const sent = (await rig.next()) as { id: number };
    controller.abort(new Error("stop"));
    expect(await running).toMatchObject({ code: "ABORTED", method: "third" });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent.id, reason: "stop" } });
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("gives a signal shared by requests in flight one listener, and its abort cancels each of them", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const controller = new AbortController();
    const outcomes = Array.from({ length: 20 }, (_, i) => rig.server.request("long", [i], { signal: controller.signal }).catch((error: unknown) => error));
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) ids.push(((await rig.next()) as { id: number }).id);
    expect(listeners(controller.signal)).toBe(1);
    controller.abort("enough");
    for (const outcome of outcomes) expect(await outcome).toMatchObject({ code: "ABORTED", method: "long" });
    const cancelled: unknown[] = [];
    for (let i = 0; i < 20; i++) cancelled.push(((await rig.next()) as unknown as { params: { requestId: number } }).params.requestId);
    expect(cancelled.sort((a, b) => (a as number) - (b as number))).toEqual(ids);
  });

  it("keeps the listeners of at most MAX_KEPT_SIGNALS idle signals, and removes every one when the peer closes", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const signals = Array.from({ length: MAX_KEPT_SIGNALS + 5 }, () => new AbortController().signal);
    for (const signal of signals) {
      const answered = rig.server.request("quick", undefined, { signal });
      const sent = (await rig.next()) as { id: number };
      await rig.send({ jsonrpc: "2.0", id: sent.id, result: 1 });
      await answered;
    }
    expect(signals.map(listeners).filter((n) => n === 1).length).toBe(MAX_KEPT_SIGNALS);
    expect(signals.slice(MAX_KEPT_SIGNALS).map(listeners)).toEqual([0, 0, 0, 0, 0]);
    await rig.server.close();
    expect(signals.map(listeners).every((n) => n === 0)).toBe(true);
  });

  it("sends nothing when a kept signal aborts with no request running", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const controller = new AbortController();
    const answered = rig.server.request("quick", undefined, { signal: controller.signal });
    const sent = (await rig.next()) as { id: number };
    await rig.send({ jsonrpc: "2.0", id: sent.id, result: 1 });
    await answered;
    controller.abort();
    expect(listeners(controller.signal)).toBe(0);
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });
});
