import { describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import {
  createResourceNotFoundError,
  createUnsupportedVersionError,
  createUrlElicitationRequiredError,
  isUnsupportedVersionError,
  McpErrorCode,
  unsupportedVersionData,
} from "./errors";

describe("unsupported protocol version", () => {
  it("is -32022 with supported and requested", () => {
    const error = createUnsupportedVersionError("2099-01-01", ["2025-11-25"]);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ["2025-11-25"], requested: "2099-01-01" });
    expect(error.message).toContain("2025-11-25");
  });
  it("is recognised by -32022, by the draft -32004, and by data.supported", () => {
    expect(isUnsupportedVersionError(createUnsupportedVersionError("x"))).toBe(true);
    expect(isUnsupportedVersionError({ code: -32004, message: "m", data: { supported: ["2025-11-25"], requested: "x" } })).toBe(true);
    expect(isUnsupportedVersionError({ code: -32004, message: "m" })).toBe(true);
    expect(isUnsupportedVersionError({ code: -32602, message: "m", data: { supported: ["2025-06-18"] } })).toBe(true);
    expect(unsupportedVersionData({ code: -32602, message: "m", data: { supported: ["2025-06-18"] } })).toEqual({ supported: ["2025-06-18"], requested: "" });
  });
  it("is not confused with other errors", () => {
    expect(isUnsupportedVersionError({ code: -32602, message: "m", data: { supported: "2025-06-18" } })).toBe(false);
    expect(isUnsupportedVersionError(new JsonRpcError(-32600, "x"))).toBe(false);
    expect(isUnsupportedVersionError(null)).toBe(false);
    expect(isUnsupportedVersionError("oops")).toBe(false);
    expect(isUnsupportedVersionError({ code: -32022, data: { supported: [1] } })).toBe(true);
  });
});

describe("other MCP errors", () => {
  it("resource not found", () => {
    const error = createResourceNotFoundError("file:///x");
    expect(error.code).toBe(McpErrorCode.ResourceNotFound);
    expect(error.data).toEqual({ uri: "file:///x" });
  });
  it("URL elicitation required", () => {
    const error = createUrlElicitationRequiredError([{ mode: "url", message: "m", elicitationId: "e", url: "https://x" }]);
    expect(error.code).toBe(-32042);
    expect(error.toObject().data).toEqual({ elicitations: [{ mode: "url", message: "m", elicitationId: "e", url: "https://x" }] });
  });
  it("keeps the JSON-RPC codes", () => {
    expect(McpErrorCode.InvalidParams).toBe(-32602);
    expect(McpErrorCode.MethodNotFound).toBe(-32601);
  });
});
