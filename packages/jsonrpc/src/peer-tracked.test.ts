import { afterEach, describe, expect, it, vi } from "vitest";
import type { TrackedRequest } from "./index";
import { cancellation, createRig, flush } from "./peer.test-support";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Timers as browsers make them: numbers, no `refresh()` (over the fake timers). */
function numberTimers(): void {
  const set = globalThis.setTimeout;
  const clear = globalThis.clearTimeout;
  const byId = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  vi.stubGlobal("setTimeout", (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id = next++;
    byId.set(id, set(fn, ms, ...args));
    return id;
  });
  vi.stubGlobal("clearTimeout", (id: number | undefined) => {
    if (id === undefined) return;
    clear(byId.get(id));
    byId.delete(id);
  });
}

describe("Peer: the handle RequestOptions.track gives", () => {
  it("abort(reason) rejects the request with ABORTED and sends the cancellation with the reason's message", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    let tracked: TrackedRequest | undefined;
    const reason = new Error("over budget");
    const running = rig.server.request("long", undefined, { track: (request) => (tracked = request) }).catch((error: unknown) => error);
    const sent = (await rig.next()) as { id: number };
    tracked?.abort(reason);
    expect(await running).toMatchObject({ code: "ABORTED", method: "long", cause: reason });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent.id, reason: "over budget" } });
    // A late answer is an unknown id now; a second abort does nothing.
    tracked?.abort(new Error("again"));
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("abort() after the answer does nothing: no rejection, no cancellation", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    let tracked: TrackedRequest | undefined;
    const answered = rig.server.request("quick", undefined, { track: (request) => (tracked = request) });
    const sent = (await rig.next()) as { id: number };
    await rig.send({ jsonrpc: "2.0", id: sent.id, result: 1 });
    await expect(answered).resolves.toBe(1);
    tracked?.abort("late");
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
  });

  it("abort() from inside the track callback rejects without sending the request or a cancellation", async () => {
    const rig = await createRig({ cancellation });
    await rig.server.start();
    const outcome = rig.server.request("never", undefined, { track: (request) => request.abort("no") }).catch((error: unknown) => error);
    expect(await outcome).toMatchObject({ code: "ABORTED", method: "never", cause: "no" });
    await rig.server.notify("marker");
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "marker" });
    await flush();
    expect(rig.pending()).toEqual([]);
  });

  it.each([["timers with refresh()", false], ["number timers", true]])("resetTimeout() on every progress keeps the deadline timeoutMs after the last reset; then the timeout cancels (%s)", async (_, numbers) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    if (numbers) numberTimers();
    const rig = await createRig({ cancellation, requestTimeoutMs: 1000 });
    await rig.server.start();
    let tracked: TrackedRequest | undefined;
    const outcome = rig.server.request("progressing", undefined, { track: (request) => (tracked = request) }).then(() => "answered", (error: unknown) => error);
    const sent = (await rig.next()) as { id: number };
    let settled = false;
    void outcome.then(() => (settled = true));
    for (let i = 0; i < 4; i++) {
      await vi.advanceTimersByTimeAsync(900);
      tracked?.resetTimeout();
    }
    await vi.advanceTimersByTimeAsync(999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toMatchObject({ code: "TIMEOUT", method: "progressing" });
    expect(await rig.next()).toEqual({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: sent.id, reason: "timeout" } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no timer behind when a request whose timeout was reset is answered", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const rig = await createRig({ requestTimeoutMs: 1000 });
    await rig.server.start();
    let tracked: TrackedRequest | undefined;
    const answered = rig.server.request("x", undefined, { track: (request) => (tracked = request) });
    const sent = (await rig.next()) as { id: number };
    tracked?.resetTimeout();
    tracked?.resetTimeout();
    await rig.send({ jsonrpc: "2.0", id: sent.id, result: "ok" });
    await expect(answered).resolves.toBe("ok");
    expect(vi.getTimerCount()).toBe(0);
  });
});
