import { expect, it } from "vitest";
import { mcpCancellation } from "./cancellation";

it("builds and reads notifications/cancelled params", () => {
  expect(mcpCancellation.method).toBe("notifications/cancelled");
  expect(mcpCancellation.params(3, "user")).toEqual({ requestId: 3, reason: "user" });
  expect(mcpCancellation.params("a")).toEqual({ requestId: "a" });
  expect(mcpCancellation.requestId({ requestId: 7 })).toBe(7);
  expect(mcpCancellation.requestId({ requestId: null })).toBeUndefined();
  expect(mcpCancellation.requestId([1])).toBeUndefined();
  expect(mcpCancellation.requestId(undefined)).toBeUndefined();
  expect(mcpCancellation.reason?.({ requestId: 1, reason: "x".repeat(5000) })).toHaveLength(1024);
  expect(mcpCancellation.reason?.({ requestId: 1, reason: 5 })).toBeUndefined();
});
