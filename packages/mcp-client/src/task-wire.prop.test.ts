import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import { isMcpClientError } from "./errors";
import { createdTask, parseSnapshot } from "./task-wire";

/** Task shapes near the real ones: every field present, missing, or of a wrong type. */
const field = (good: fc.Arbitrary<unknown>) => fc.option(fc.oneof(good, fc.jsonValue()), { nil: undefined });
const taskArb = fc.record({
  taskId: field(fc.string({ minLength: 1 })),
  status: field(fc.constantFrom("working", "input_required", "completed", "failed", "cancelled", "done")),
  statusMessage: field(fc.string()),
  createdAt: field(fc.constant("2026-01-01T00:00:00Z")),
  lastUpdatedAt: field(fc.constant("2026-01-01T00:00:00Z")),
  ttlMs: field(fc.oneof(fc.nat(), fc.constant(null))),
  ttl: field(fc.oneof(fc.nat(), fc.constant(null))),
  pollIntervalMs: field(fc.nat()),
  pollInterval: field(fc.nat()),
  result: field(fc.record({ content: fc.array(fc.record({ type: fc.constant("text"), text: fc.string() }), { maxLength: 2 }) })),
  error: field(fc.record({ code: fc.integer(), message: fc.string() })),
  inputRequests: field(fc.dictionary(fc.string(), fc.record({ method: fc.string(), params: fc.dictionary(fc.string(), fc.jsonValue()) }), { maxKeys: 3 })),
  resultType: field(fc.constantFrom("task", "complete")),
}, { requiredKeys: [] });

describe("task wire parsing", () => {
  it("any task-like answer is read or refused with INVALID_RESULT, never anything else", () => {
    fc.assert(fc.property(fc.oneof(taskArb, fc.jsonValue()), fc.boolean(), (raw, modern) => {
      for (const read of [() => parseSnapshot(raw, modern, "x"), () => createdTask(raw, modern), () => createdTask({ task: raw }, false)]) {
        try {
          const out = read();
          if (out !== undefined && "info" in out) {
            expect(typeof out.info.taskId).toBe("string");
            if (out.result !== undefined) expect(Array.isArray(out.result.content)).toBe(true);
            if (out.error !== undefined) expect(out.error).toBeInstanceOf(JsonRpcError);
          }
        } catch (error) {
          expect(isMcpClientError(error, "INVALID_RESULT")).toBe(true);
        }
      }
    }), { numRuns: 500 });
  });

  it("a 2026-07-28 snapshot keeps what its status carries, named as in both eras", () => {
    fc.assert(fc.property(fc.nat(), fc.option(fc.nat(), { nil: undefined }), (ttlMs, pollIntervalMs) => {
      const base = { taskId: "t", createdAt: "a", lastUpdatedAt: "b", ttlMs, ...(pollIntervalMs === undefined ? {} : { pollIntervalMs }) };
      const snap = parseSnapshot({ ...base, status: "completed", result: { content: [] } }, true, "x");
      expect(snap.info).toEqual({ ...base, status: "completed" });
      expect(snap.result).toEqual({ content: [] });
      const legacy = parseSnapshot({ taskId: "t", createdAt: "a", lastUpdatedAt: "b", status: "working", ttl: ttlMs, ...(pollIntervalMs === undefined ? {} : { pollInterval: pollIntervalMs }) }, false, "x");
      expect(legacy.info).toEqual({ ...base, status: "working" });
    }));
  });
});
