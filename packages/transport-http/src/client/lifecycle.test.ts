import { describe, expect, it } from "vitest";
import { createLifecycleMemory, requestIdsOf } from "./lifecycle";

describe("lifecycle memory", () => {
  it("remembers the initialize and initialized it saw, and reads the version from the matching answer only", () => {
    const memory = createLifecycleMemory();
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25" } } as const;
    expect(memory.observeOutbound([init])).toBe(true);
    expect(memory.observeInbound([{ jsonrpc: "2.0", id: 2, result: { protocolVersion: "1999-01-01" } }])).toBeUndefined();
    expect(memory.observeInbound([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-06-18" } }])).toBe("2025-06-18");
    expect(memory.observeInbound([{ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25" } }])).toBeUndefined();
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" } as const;
    expect(memory.observeOutbound([initialized])).toBe(false);
    expect(memory.initialize).toBe(init);
    expect(memory.initialized).toBe(initialized);
    memory.observeOutbound([{ ...init, id: 9 }]);
    expect(memory.initialized).toBeUndefined();
  });

  it("lists the request ids a payload owes answers for", () => {
    expect(requestIdsOf([{ jsonrpc: "2.0", id: "a", method: "x" }, { jsonrpc: "2.0", method: "n" }, { jsonrpc: "2.0", id: 3, result: {} }])).toEqual(["a"]);
  });
});
