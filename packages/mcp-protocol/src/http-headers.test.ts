import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeHeaderValue, encodeHeaderValue, headerParamsOf, headerParamText, nameHeaderSource } from "./http-headers";

describe("header value encoding", () => {
  it("follows the spec's examples", () => {
    expect(encodeHeaderValue("us-west1")).toBe("us-west1");
    expect(encodeHeaderValue("Hello, 世界")).toBe("=?base64?SGVsbG8sIOS4lueVjA==?=");
    expect(encodeHeaderValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(encodeHeaderValue("line1\nline2")).toBe("=?base64?bGluZTEKbGluZTI=?=");
    expect(encodeHeaderValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
  });
  it("round-trips any string", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme" }), (s) => decodeHeaderValue(encodeHeaderValue(s)) === s));
  });
  it("refuses broken values", () => {
    expect(decodeHeaderValue("=?base64?***?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined();
    expect(decodeHeaderValue("a\u0000b")).toBeUndefined();
    expect(decodeHeaderValue("é")).toBeUndefined();
  });
});

describe("x-mcp-header", () => {
  it("collects the tagged properties through properties chains", () => {
    const schema = {
      type: "object",
      properties: {
        region: { type: "string", "x-mcp-header": "Region" },
        opts: { type: "object", properties: { n: { type: "integer", "x-mcp-header": "N" } } },
      },
    };
    const read = headerParamsOf(schema);
    expect(read).toEqual({ params: [{ header: "Region", path: ["region"], type: "string" }, { header: "N", path: ["opts", "n"], type: "integer" }] });
    if (!("params" in read)) throw new Error("unreachable");
    expect(headerParamText(read.params[1]!, { opts: { n: 42 } })).toBe("42");
    expect(headerParamText(read.params[0]!, { region: null })).toBeUndefined();
  });
  it("rejects invalid annotations", () => {
    const bad = [
      { properties: { a: { type: "number", "x-mcp-header": "A" } } },
      { properties: { a: { type: "string", "x-mcp-header": "" } } },
      { properties: { a: { type: "string", "x-mcp-header": "A B" } } },
      { properties: { a: { type: "string", "x-mcp-header": "A" }, b: { type: "string", "x-mcp-header": "a" } } },
      { properties: { a: { type: "array", items: { type: "string", "x-mcp-header": "A" } } } },
      { properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } },
    ];
    for (const schema of bad) expect(headerParamsOf(schema)).toHaveProperty("problem");
  });
  it("names the Mcp-Name source per method", () => {
    expect(nameHeaderSource("tools/call", { name: "t" })).toBe("t");
    expect(nameHeaderSource("resources/read", { uri: "file:///a" })).toBe("file:///a");
    expect(nameHeaderSource("tools/list", {})).toBeUndefined();
    expect(nameHeaderSource("tasks/get", { taskId: "t-1" })).toBe("t-1");
    expect(nameHeaderSource("tasks/update", { taskId: "t-2", inputResponses: {} })).toBe("t-2");
    expect(nameHeaderSource("tasks/cancel", { taskId: 7 })).toBeUndefined();
  });
});
