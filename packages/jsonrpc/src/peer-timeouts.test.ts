import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cancellation, createRig } from "./peer.test-support";

describe("Peer: timeouts of requests sent together", () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => vi.useRealTimers());

  it("times out each request of one run that is still waiting, and only those, with one cancellation each", async () => {
    const rig = await createRig({ cancellation, requestTimeoutMs: 100 });
    await rig.server.start();
    const answered = rig.server.request("a");
    const waiting = rig.server.request("b").catch((error: unknown) => error);
    const first = (await rig.next()) as { id: number };
    const second = (await rig.next()) as { id: number };
    await rig.send({ jsonrpc: "2.0", id: first.id, result: "done" });
    await expect(answered).resolves.toBe("done");
    await vi.advanceTimersByTimeAsync(99);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toMatchObject({ code: "TIMEOUT", method: "b" });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: second.id, reason: "timeout" } });
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("gives a request sent after an await its own deadline, and requests of other timeouts theirs", async () => {
    const rig = await createRig({ requestTimeoutMs: 100 });
    await rig.server.start();
    const outcomes: string[] = [];
    const track = (name: string, p: Promise<unknown>) => void p.catch(() => outcomes.push(name));
    track("early", rig.server.request("early"));
    track("short", rig.server.request("short", undefined, { timeoutMs: 50 }));
    track("early-2", rig.server.request("early-2"));
    await vi.advanceTimersByTimeAsync(60);
    expect(outcomes).toEqual(["short"]);
    track("late", rig.server.request("late"));
    await vi.advanceTimersByTimeAsync(40);
    expect(outcomes).toEqual(["short", "early", "early-2"]);
    await vi.advanceTimersByTimeAsync(59);
    expect(outcomes).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcomes).toEqual(["short", "early", "early-2", "late"]);
  });

  it("leaves no timer once every request of a run is answered", async () => {
    const rig = await createRig({ requestTimeoutMs: 100 });
    await rig.server.start();
    const calls = [rig.server.request("x"), rig.server.request("y"), rig.server.request("z", undefined, { timeoutMs: 30 })];
    for (let i = 0; i < calls.length; i++) {
      const sent = (await rig.next()) as { id: number };
      await rig.send({ jsonrpc: "2.0", id: sent.id, result: i });
    }
    await Promise.all(calls);
    expect(vi.getTimerCount()).toBe(0);
  });
});
