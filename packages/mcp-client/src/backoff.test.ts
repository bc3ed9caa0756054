import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { backoffDelay, retry, sleep } from "./backoff";

describe("backoffDelay", () => {
  it("grows exponentially up to the cap without jitter", () => {
    const o = { initialDelayMs: 100, maxDelayMs: 1000, jitter: "none" } as const;
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, o))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it("with full jitter stays within [0, capped delay]", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (n, r) => {
        const d = backoffDelay(n, { initialDelayMs: 10, maxDelayMs: 5000 }, () => r);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThanOrEqual(Math.min(5000, 10 * 2 ** (n - 1)));
      }),
    );
  });

  it("refuses nonsense options", () => {
    expect(() => backoffDelay(1, { factor: 0.5 })).toThrow(/factor/);
    expect(() => backoffDelay(1, { initialDelayMs: Number.NaN })).toThrow(/initialDelayMs/);
  });
});

describe("retry", () => {
  it("retries until success and reports each retry", async () => {
    const seen: number[] = [];
    const result = await retry(
      async (n) => {
        if (n < 3) throw new Error(`attempt ${n}`);
        return n;
      },
      { retries: 5, initialDelayMs: 0, onRetry: (_e, n) => seen.push(n) },
    );
    expect(result).toBe(3);
    expect(seen).toEqual([1, 2]);
  });

  it("gives up after `retries` retries with the last error", async () => {
    let calls = 0;
    await expect(retry(async () => {
      calls++;
      throw new Error(`no ${calls}`);
    }, { retries: 2, initialDelayMs: 0 })).rejects.toThrow("no 3");
    expect(calls).toBe(3);
  });

  it("stops at once when shouldRetry says no", async () => {
    let calls = 0;
    await expect(retry(async () => {
      calls++;
      throw new Error("fatal");
    }, { retries: 5, initialDelayMs: 0, shouldRetry: () => false })).rejects.toThrow("fatal");
    expect(calls).toBe(1);
  });

  it("stops waiting when aborted and rejects with the reason", async () => {
    const aborter = new AbortController();
    const p = retry(async () => {
      throw new Error("down");
    }, { retries: 5, initialDelayMs: 60_000, jitter: "none", signal: aborter.signal, onRetry: () => queueMicrotask(() => aborter.abort(new Error("shutdown"))) });
    await expect(p).rejects.toThrow("shutdown");
  });

  it("sleep rejects at once on an aborted signal", async () => {
    await expect(sleep(10, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });
});
