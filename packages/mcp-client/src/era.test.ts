import { describe, expect, it } from "vitest";
import { createEnvelopeCache } from "./era";

const INFO = { name: "t", version: "1" };
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

describe("createEnvelopeCache", () => {
  it("shares one frozen envelope per method and asks for its capabilities once", () => {
    const asked: string[] = [];
    const cache = createEnvelopeCache("2026-07-28", INFO, (method) => (asked.push(method), method === "tools/call" ? TASKS : {}));
    const first = cache.get("tools/call", undefined);
    expect(cache.get("tools/call", undefined)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(first).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": TASKS,
      "io.modelcontextprotocol/clientInfo": INFO,
    });
    expect(cache.get("tools/list", undefined)["io.modelcontextprotocol/clientCapabilities"]).toEqual({});
    expect(asked).toEqual(["tools/call", "tools/list"]);
  });

  it("rebuilds every envelope when the log level changes, and drops the level when it is unset", () => {
    const cache = createEnvelopeCache("2026-07-28", INFO, () => ({}));
    const before = cache.get("tools/list", undefined);
    const warning = cache.get("tools/list", "warning");
    expect(warning).not.toBe(before);
    expect(warning["io.modelcontextprotocol/logLevel"]).toBe("warning");
    expect(cache.get("tools/list", "error")["io.modelcontextprotocol/logLevel"]).toBe("error");
    expect(cache.get("tools/list", undefined)).not.toHaveProperty(["io.modelcontextprotocol/logLevel"]);
  });

  it("keeps at most 64 methods and still answers the ones past the bound", () => {
    let built = 0;
    const cache = createEnvelopeCache("2026-07-28", INFO, () => (built++, {}));
    for (let i = 0; i < 70; i++) cache.get(`x/${i}`, undefined);
    built = 0;
    cache.get("x/0", undefined);
    cache.get("x/69", undefined);
    cache.get("x/69", undefined);
    expect(built).toBe(2);
  });
});
