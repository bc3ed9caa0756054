import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RequestError } from "@proto/jsonrpc";
import { callTools, type ToolCall, type ToolCaller } from "./call-tools";

type Plan = { readonly fail: boolean; readonly value: number };

function plannedCaller(s: fc.Scheduler, plans: readonly Plan[], log: { started: number[]; resolved: number[] }): ToolCaller<number> {
  return {
    callTool(name) {
      const index = Number(name.slice(1));
      log.started.push(index);
      const plan = plans[index] as Plan;
      return s.schedule(Promise.resolve(plan), `call ${index}`).then((p) => {
        log.resolved.push(index);
        if (p.fail) throw new Error(`fail ${index}`);
        return p.value;
      });
    },
  };
}

const plansArb = fc.array(fc.record({ fail: fc.boolean(), value: fc.integer() }), { minLength: 0, maxLength: 12 });

describe("callTools properties", () => {
  it("returns outcomes in call order whatever order responses arrive in, each exactly once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), plansArb, fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }), async (s, plans, concurrency) => {
        const calls: ToolCall[] = plans.map((_, i) => ({ name: `t${i}` }));
        const log = { started: [] as number[], resolved: [] as number[] };
        let settledCount = 0;
        const done = callTools(plannedCaller(s, plans, log), calls, { timeoutMs: 0, ...(concurrency ? { concurrency } : {}) }).then((r) => {
          settledCount++;
          return r;
        });
        await s.waitFor(done);
        const outcomes = await done;
        expect(settledCount).toBe(1);
        expect(outcomes).toHaveLength(calls.length);
        outcomes.forEach((outcome, i) => {
          expect(outcome.call).toBe(calls[i]);
          const plan = plans[i] as Plan;
          if (plan.fail) expect(outcome.ok ? undefined : (outcome.error as Error).message).toBe(`fail ${i}`);
          else expect(outcome.ok ? outcome.result : undefined).toBe(plan.value);
        });
        // Each call started exactly once.
        expect([...log.started].sort((a, b) => a - b)).toEqual(plans.map((_, i) => i));
      }),
      { numRuns: 200 },
    );
  });

  it("an abort at any point settles every unfinished call as ABORTED and keeps finished results", async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), plansArb, fc.nat({ max: 12 }), async (s, plans, abortAfter) => {
        const calls: ToolCall[] = plans.map((_, i) => ({ name: `t${i}` }));
        const log = { started: [] as number[], resolved: [] as number[] };
        const aborter = new AbortController();
        const caller = plannedCaller(s, plans, log);
        const counting: ToolCaller<number> = {
          callTool(name, args, options) {
            const p = caller.callTool(name, args, options);
            void p.then(() => log.resolved.length >= abortAfter && aborter.abort(new Error("stop")), () => log.resolved.length >= abortAfter && aborter.abort(new Error("stop")));
            return p;
          },
        };
        if (abortAfter === 0) aborter.abort(new Error("stop"));
        const done = callTools(counting, calls, { signal: aborter.signal, timeoutMs: 0, concurrency: 3 });
        await s.waitFor(done);
        const outcomes = await done;
        expect(outcomes).toHaveLength(calls.length);
        outcomes.forEach((outcome, i) => {
          expect(outcome.call).toBe(calls[i]);
          if (!outcome.ok && outcome.error instanceof RequestError) expect(outcome.error.code).toBe("ABORTED");
          if (outcome.ok) expect(outcome.result).toBe((plans[i] as Plan).value);
        });
        // Late results never overwrite an outcome: resolve whatever is still pending, then compare.
        const before = outcomes.map((o) => ({ ...o }));
        await s.waitAll();
        expect(outcomes.map((o) => ({ ...o }))).toEqual(before);
      }),
      { numRuns: 200 },
    );
  });
});
