import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import type { ServerSession } from "../session-types";
import { createSubscriptions } from "./subscriptions";
import type { SubscriptionState } from "./subscriptions";

const session = (id: string) => ({ id }) as unknown as ServerSession;

describe("createSubscriptions", () => {
  it("indexes subscribers by URI, idempotently, and forgets a session entirely", () => {
    const subs = createSubscriptions();
    const a = session("a");
    const b = session("b");
    const sa: SubscriptionState = new Set();
    const sb: SubscriptionState = new Set();
    subs.add(a, sa, "x");
    subs.add(a, sa, "x");
    subs.add(b, sb, "x");
    subs.add(b, sb, "y");
    expect(subs.subscribers("x")).toEqual([a, b]);
    subs.remove(a, sa, "x");
    subs.remove(a, sa, "never");
    expect(subs.subscribers("x")).toEqual([b]);
    subs.forget(b, sb);
    expect(subs.subscribers("x")).toEqual([]);
    expect(subs.subscribers("y")).toEqual([]);
    expect(sb.size).toBe(0);
  });

  it("caps subscriptions per session with -32602", () => {
    const subs = createSubscriptions(2);
    const a = session("a");
    const state: SubscriptionState = new Set();
    subs.add(a, state, "1");
    subs.add(a, state, "2");
    expect(() => subs.add(a, state, "3")).toThrow(expect.objectContaining({ code: JsonRpcErrorCode.InvalidParams }));
    subs.add(a, state, "2");
    expect(subs.subscribers("3")).toEqual([]);
    subs.remove(a, state, "2");
    expect(() => subs.add(a, state, "x".repeat(4097))).toThrow(/too long/);
  });
});
