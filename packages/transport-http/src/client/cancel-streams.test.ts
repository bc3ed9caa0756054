import { describe, expect, it } from "vitest";
import { createCancelTracker } from "./cancel-streams";

const cancel = (requestId: number | string) => ({ jsonrpc: "2.0" as const, method: "notifications/cancelled", params: { requestId } });

describe("the answer streams of cancelled requests", () => {
  it("closes a POST's stream once every request it carried was cancelled, not before", () => {
    const tracker = createCancelTracker(new AbortController().signal);
    const batch = tracker.open([1, 2]);
    tracker.observe(cancel(1));
    expect(batch.signal.aborted).toBe(false);
    tracker.observe(cancel(2));
    expect(batch.signal.aborted).toBe(true);
    expect(batch.cancelled).toBe(true);
  });

  it("ignores other messages, unknown ids and finished streams; the transport's end closes them all", () => {
    const lifetime = new AbortController();
    const tracker = createCancelTracker(lifetime.signal);
    const done = tracker.open(["a"]);
    done.done();
    tracker.observe(cancel("a"));
    expect(done.signal.aborted).toBe(false);
    const open = tracker.open([3]);
    tracker.observe(cancel(4));
    tracker.observe({ jsonrpc: "2.0", method: "notifications/progress", params: { requestId: 3 } });
    expect(open.signal.aborted).toBe(false);
    lifetime.abort();
    expect(open.signal.aborted).toBe(true);
    expect(open.cancelled).toBe(false);
  });
});
