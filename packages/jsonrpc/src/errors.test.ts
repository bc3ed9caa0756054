import { describe, expect, it } from "vitest";
import { ErrorCode, FaultCode, JsonRpcErrorCode, JsonRpcFaultCode, JsonRpcError, RequestError, TransportError } from "./errors";

describe("JsonRpcError", () => {
  it("carries code, message and data, and turns into the wire object", () => {
    const error = new JsonRpcError(-32602, "Invalid params", { at: "x" });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("JsonRpcError");
    expect(error.toObject()).toEqual({ code: -32602, message: "Invalid params", data: { at: "x" } });
    expect(new JsonRpcError(1, "m").toObject()).toEqual({ code: 1, message: "m" });
  });

  it("refuses a code that is not an integer", () => {
    expect(() => new JsonRpcError(1.5, "x")).toThrow(TypeError);
    expect(() => new JsonRpcError(Number.NaN, "x")).toThrow(TypeError);
  });

  it("from() passes a JsonRpcError through and hides everything else behind -32603", () => {
    const wire = new JsonRpcError(-32000, "custom");
    expect(JsonRpcError.from(wire)).toBe(wire);
    const seen: unknown[] = [];
    for (const thrown of [new Error("secret"), "string", undefined, { code: -32000, message: "looks like one" }]) {
      const error = JsonRpcError.from(thrown, (original) => seen.push(original));
      expect(error.toObject()).toEqual({ code: -32603, message: "Internal error" });
    }
    expect(seen).toHaveLength(4);
  });

  it("fromObject() rebuilds the peer's error", () => {
    const error = JsonRpcError.fromObject({ code: 7, message: "m", data: [1] });
    expect([error.code, error.message, error.data]).toEqual([7, "m", [1]]);
  });

  it("lists the standard codes", () => {
    expect(JsonRpcErrorCode).toEqual({ ParseError: -32700, InvalidRequest: -32600, MethodNotFound: -32601, InvalidParams: -32602, InternalError: -32603 });
  });

  it("keeps the former table names as aliases of the same objects", () => {
    expect(ErrorCode).toBe(JsonRpcErrorCode);
    expect(FaultCode).toBe(JsonRpcFaultCode);
  });
});

describe("library faults", () => {
  it("carry stable string codes", () => {
    expect(Object.values(JsonRpcFaultCode).sort()).toEqual(["ABORTED", "BAD_FRAME", "CLOSED", "OVERSIZED", "TIMEOUT", "UNKNOWN_RESPONSE", "WRITE_FAILED"]);
    const cause = new Error("io");
    const fault = new TransportError(JsonRpcFaultCode.WriteFailed, "write failed", { cause });
    expect([fault.name, fault.code, fault.cause]).toEqual(["TransportError", "WRITE_FAILED", cause]);
    const request = new RequestError(JsonRpcFaultCode.Timeout, "tools/call", "slow");
    expect([request.name, request.code, request.method]).toEqual(["RequestError", "TIMEOUT", "tools/call"]);
  });
});
