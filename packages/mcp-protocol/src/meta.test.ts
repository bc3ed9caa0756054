import { describe, expect, it } from "vitest";
import { isReservedMetaKey, isValidMetaKey, MetaKey, parseMetaKey } from "./meta";

describe("_meta key rules", () => {
  it("parses prefix and name", () => {
    expect(parseMetaKey("io.modelcontextprotocol/protocolVersion")).toEqual({ prefix: "io.modelcontextprotocol", name: "protocolVersion" });
    expect(parseMetaKey("progressToken")).toEqual({ name: "progressToken" });
    expect(parseMetaKey("com.example/")).toEqual({ prefix: "com.example", name: "" });
  });
  it("refuses bad syntax", () => {
    for (const key of ["-a", "a-", "1com.example/x", "com..example/x", "com.example-/x", "/x", "a/b/c", "x y", "com.example/_x"]) {
      expect(isValidMetaKey(key), key).toBe(false);
    }
    expect(isValidMetaKey("a".repeat(2000))).toBe(false);
  });
  it("accepts good syntax", () => {
    for (const key of ["a", "a.b_c-d", "com.example/x", "com.ex-ample.api/v1.2", "ui", ""]) expect(isValidMetaKey(key), key).toBe(true);
  });
  it("reserves prefixes whose second label is modelcontextprotocol or mcp", () => {
    expect(isReservedMetaKey("io.modelcontextprotocol/x")).toBe(true);
    expect(isReservedMetaKey("dev.mcp/x")).toBe(true);
    expect(isReservedMetaKey("org.modelcontextprotocol.api/x")).toBe(true);
    expect(isReservedMetaKey("com.mcp.tools/x")).toBe(true);
    expect(isReservedMetaKey("com.example.mcp/x")).toBe(false);
    expect(isReservedMetaKey("mcp/x")).toBe(false);
    expect(isReservedMetaKey("progressToken")).toBe(false);
  });
  it("every MCP-defined key with a prefix is reserved", () => {
    for (const key of Object.values(MetaKey)) {
      expect(isValidMetaKey(key)).toBe(true);
      expect(isReservedMetaKey(key)).toBe(key.includes("/"));
    }
  });
  it("stays fast on adversarial keys (linear pattern)", () => {
    const key = `${"a-".repeat(500)}!`;
    expect(isValidMetaKey(key)).toBe(false);
  });
});
