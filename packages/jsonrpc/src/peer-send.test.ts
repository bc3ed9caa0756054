import { describe, expect, it } from "vitest";
import { createPeer } from "./index";
import type { Transport } from "./transport";

/** A transport that answers the sends of one batch with one promise, as the stdio write queue does. */
function batchingTransport() {
  let current: { promise: Promise<void>; fail: (error: Error) => void; done: () => void } | undefined;
  const open = () => {
    let fail!: (error: Error) => void;
    let done!: () => void;
    const promise = new Promise<void>((resolve, reject) => ((done = resolve), (fail = reject)));
    current = { promise, fail, done };
    return current;
  };
  const transport: Transport = { start: async () => undefined, send: () => (current ?? open()).promise, close: async () => undefined };
  return { transport, batch: () => open() };
}

describe("Peer: requests sent on one shared send promise", () => {
  it("rejects each request of a failed batch with the transport's error, and leaves other batches' requests waiting", async () => {
    const rig = batchingTransport();
    const peer = createPeer(rig.transport, { requestTimeoutMs: 0 });
    await peer.start();
    const failing = rig.batch();
    const first = [peer.request("a"), peer.request("b"), peer.request("c")].map((p) => p.catch((error: unknown) => error));
    const fine = rig.batch();
    let settled = false;
    const later = peer.request("d").finally(() => (settled = true));
    const broken = new Error("pipe broken");
    failing.fail(broken);
    fine.done();
    for (const outcome of first) expect(await outcome).toBe(broken);
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    void later.catch(() => {});
    await peer.close();
  });

  it("rejects every request sent on one settled promise reused past the shared handler's bound", async () => {
    const broken = new Error("gone");
    const shared = Promise.reject(broken);
    shared.catch(() => {});
    const peer = createPeer({ start: async () => undefined, send: () => shared, close: async () => undefined }, { requestTimeoutMs: 0 });
    await peer.start();
    const outcomes = await Promise.all(Array.from({ length: 600 }, (_, i) => peer.request(`m${i}`).then(() => "ok", (error: unknown) => error)));
    expect(outcomes.every((outcome) => outcome === broken)).toBe(true);
  });
});
