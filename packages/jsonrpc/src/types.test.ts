import { describe, expect, it } from "vitest";
import { isBatch, isFailure, isNotification, isRequest, isResponse, isSuccess } from "./types";

const request = { jsonrpc: "2.0", id: 1, method: "m" } as const;
const notification = { jsonrpc: "2.0", method: "m" } as const;
const success = { jsonrpc: "2.0", id: 1, result: null } as const;
const failure = { jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } } as const;

describe("type guards", () => {
  it("tell the four kinds of message apart", () => {
    const table = [request, notification, success, failure].map((m) => [isRequest(m), isNotification(m), isResponse(m), isSuccess(m), isFailure(m)]);
    expect(table).toEqual([
      [true, false, false, false, false],
      [false, true, false, false, false],
      [false, false, true, true, false],
      [false, false, true, false, true],
    ]);
  });

  it("say no to anything else", () => {
    for (const value of [null, undefined, 1, "x", [], [request], { method: 1 }]) {
      expect([isRequest(value), isNotification(value), isResponse(value)]).toEqual([false, false, false]);
    }
  });

  it("isBatch tells a batch from one message", () => {
    expect(isBatch([request])).toBe(true);
    expect(isBatch(request)).toBe(false);
  });
});
