import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { callTools, type ToolCaller } from "./call-tools";
import type { ProgressUpdate } from "./request-options";

interface Pending {
  name: string;
  signal: AbortSignal;
  onProgress?: (p: ProgressUpdate) => void;
  resolve: (v: string) => void;
  reject: (e: unknown) => void;
}

function manualCaller(): { caller: ToolCaller<string>; pending: Pending[] } {
  const pending: Pending[] = [];
  const caller: ToolCaller<string> = {
    callTool(name, _args, options) {
      return new Promise<string>((resolve, reject) => {
        pending.push({ name, signal: options.signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}), resolve, reject });
      });
    },
  };
  return { caller, pending };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("callTools", () => {
  it("resolves an empty batch with an empty array", async () => {
    const { caller } = manualCaller();
    await expect(callTools(caller, [])).resolves.toEqual([]);
  });

  it("times out one call without touching the others, and aborts the timed-out call's signal", async () => {
    vi.useFakeTimers();
    const { caller, pending } = manualCaller();
    const done = callTools(caller, [{ name: "slow", timeoutMs: 1000 }, { name: "fast" }], { timeoutMs: 5000 });
    pending[1]?.resolve("fast result");
    await vi.advanceTimersByTimeAsync(1000);
    expect(pending[0]?.signal.aborted).toBe(true);
    expect(pending[1]?.signal.aborted).toBe(false);
    const [slow, fast] = await done;
    expect(slow?.ok).toBe(false);
    expect(slow && !slow.ok && slow.error instanceof RequestError && slow.error.code).toBe("TIMEOUT");
    expect(fast).toMatchObject({ ok: true, result: "fast result" });
  });

  it("progress restarts a call's timeout, and maxTotalTimeoutMs caps it anyway", async () => {
    vi.useFakeTimers();
    const { caller, pending } = manualCaller();
    const seen: number[] = [];
    const done = callTools(caller, [{ name: "long", onProgress: (p) => seen.push(p.progress) }], { timeoutMs: 1000, maxTotalTimeoutMs: 3500 });
    for (let i = 1; i <= 3; i++) {
      await vi.advanceTimersByTimeAsync(900);
      pending[0]?.onProgress?.({ progress: i });
    }
    expect(pending[0]?.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(900);
    const [outcome] = await done;
    expect(seen).toEqual([1, 2, 3]);
    expect(outcome && !outcome.ok && (outcome.error as RequestError).message).toMatch(/maxTotalTimeoutMs/);
  });

  it("without resets, progress does not extend the timeout", async () => {
    vi.useFakeTimers();
    const { caller, pending } = manualCaller();
    const done = callTools(caller, [{ name: "long" }], { timeoutMs: 1000, resetTimeoutOnProgress: false });
    await vi.advanceTimersByTimeAsync(900);
    pending[0]?.onProgress?.({ progress: 1 });
    await vi.advanceTimersByTimeAsync(200);
    const [outcome] = await done;
    expect(outcome && !outcome.ok && (outcome.error as RequestError).code).toBe("TIMEOUT");
  });

  it("aborting the batch aborts every running call and never starts queued ones", async () => {
    const { caller, pending } = manualCaller();
    const aborter = new AbortController();
    const done = callTools(caller, [{ name: "a" }, { name: "b" }, { name: "c" }], { signal: aborter.signal, concurrency: 2 });
    pending[0]?.resolve("a done");
    await Promise.resolve();
    await Promise.resolve();
    expect(pending.map((p) => p.name)).toEqual(["a", "b", "c"]);
    aborter.abort(new Error("user pressed stop"));
    const outcomes = await done;
    expect(outcomes[0]).toMatchObject({ ok: true, result: "a done" });
    expect(pending[1]?.signal.aborted && pending[2]?.signal.aborted).toBe(true);
    for (const o of outcomes.slice(1)) expect(!o.ok && (o.error as RequestError).code).toBe("ABORTED");
  });

  it("respects the concurrency limit", async () => {
    const { caller, pending } = manualCaller();
    const done = callTools(caller, [{ name: "a" }, { name: "b" }, { name: "c" }], { concurrency: 1, timeoutMs: 0 });
    expect(pending).toHaveLength(1);
    pending[0]?.resolve("1");
    await vi.waitFor(() => expect(pending).toHaveLength(2));
    pending[1]?.reject(new Error("boom"));
    await vi.waitFor(() => expect(pending).toHaveLength(3));
    pending[2]?.resolve("3");
    const outcomes = await done;
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
  });

  it("an already aborted signal settles everything as ABORTED without calling", async () => {
    const { caller, pending } = manualCaller();
    const outcomes = await callTools(caller, [{ name: "a" }], { signal: AbortSignal.abort() });
    expect(pending).toHaveLength(0);
    expect(!outcomes[0]?.ok && (outcomes[0]?.error as RequestError).code).toBe("ABORTED");
  });

  it("a caller that throws synchronously gives a failed outcome", async () => {
    const caller: ToolCaller<string> = {
      callTool() {
        throw new Error("sync failure");
      },
    };
    const [o] = await callTools(caller, [{ name: "x" }]);
    expect(o && !o.ok && (o.error as Error).message).toBe("sync failure");
  });

  it("refuses bad input with a TypeError that says what to pass", () => {
    const { caller } = manualCaller();
    expect(() => callTools(caller, [{ name: 3 as unknown as string }])).toThrow(/calls\[0\]\.name/);
    expect(() => callTools(caller, [{ name: "a" }], { concurrency: 0 })).toThrow(/concurrency/);
    expect(() => callTools(caller, [{ name: "a" }], { timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});
