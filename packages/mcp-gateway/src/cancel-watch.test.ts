import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RequestContext } from "@proto/mcp-server";
import { createCancelWatch, SWEEP_MS } from "./cancel-watch";

/** A context whose signal counts its reads (the server makes one on first read). */
function context(): { ctx: RequestContext; upstream: AbortController; reads: () => number } {
  const upstream = new AbortController();
  let reads = 0;
  const ctx = {
    get signal() {
      reads++;
      return upstream.signal;
    },
  } as unknown as RequestContext;
  return { ctx, upstream, reads: () => reads };
}

describe("cancel watch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("lends the same signal again once a call ended, and never reads the upstream signal of a call that ended before a sweep", () => {
    const watch = createCancelWatch();
    const a = context();
    const first = watch.borrow(a.ctx);
    watch.release(first);
    const b = context();
    const second = watch.borrow(b.ctx);
    expect(second.signal).toBe(first.signal);
    watch.release(second);
    vi.advanceTimersByTime(SWEEP_MS * 3);
    expect(a.reads() + b.reads()).toBe(0);
    watch.close();
  });

  it("aborts the borrowed signal of a call still in flight when its upstream request is cancelled, before or after the sweep found it", () => {
    const watch = createCancelWatch();
    const early = context();
    const late = context();
    const other = context();
    const e = watch.borrow(early.ctx);
    const l = watch.borrow(late.ctx);
    const o = watch.borrow(other.ctx);
    early.upstream.abort(new Error("cancelled before the sweep"));
    expect(e.signal.aborted).toBe(false);
    vi.advanceTimersByTime(SWEEP_MS * 2);
    expect(e.signal.aborted).toBe(true);
    expect((e.signal.reason as Error).message).toBe("cancelled before the sweep");
    late.upstream.abort(new Error("cancelled after"));
    expect(l.signal.aborted).toBe(true);
    expect(o.signal.aborted).toBe(false);
    // An aborted signal is never lent again; the other call's is.
    watch.release(e);
    watch.release(o);
    expect(watch.borrow(context().ctx).signal).toBe(o.signal);
    watch.close();
  });

  it("stops listening to the upstream signal when the call ends", () => {
    const watch = createCancelWatch();
    const c = context();
    const call = watch.borrow(c.ctx);
    vi.advanceTimersByTime(SWEEP_MS * 2);
    watch.release(call);
    c.upstream.abort();
    expect(call.signal.aborted).toBe(false);
    watch.close();
  });
});
