import { describe, expect, it } from "vitest";
import { brandError, hasErrorBrand } from "./error-brand";
import { isJsonRpcError, isRequestError, isTransportError, JsonRpcError, RequestError, TransportError } from "./errors";

describe("error brands", () => {
  it("recognise an error made by another copy of the class (as a CJS build beside an ESM one)", () => {
    // a second copy of the class, as another build of the package defines it
    class OtherCopy extends Error {
      readonly code = -32602;
      readonly data = undefined;
    }
    brandError(OtherCopy, "@proto/jsonrpc:JsonRpcError");
    const foreign = new OtherCopy("bad params");
    expect(foreign instanceof JsonRpcError).toBe(true);
    expect(isJsonRpcError(foreign)).toBe(true);
    expect(JsonRpcError.from(foreign)).toBe(foreign); // passes through: not turned into -32603
  });

  it("keep subclasses and other brands apart", () => {
    class Sub extends JsonRpcError {}
    expect(new Sub(1, "x") instanceof JsonRpcError).toBe(true);
    expect(new JsonRpcError(1, "x") instanceof Sub).toBe(false);
    expect(isTransportError(new JsonRpcError(1, "x"))).toBe(false);
    expect(isTransportError(new TransportError("CLOSED", "x"))).toBe(true);
    expect(isRequestError(new RequestError("TIMEOUT", "m", "x"))).toBe(true);
    expect(isJsonRpcError({ code: 1, message: "x" })).toBe(false);
    expect(isJsonRpcError(Object.assign(new Error("x"), { name: "JsonRpcError", code: 1 }))).toBe(false);
    expect(hasErrorBrand(null, "@proto/jsonrpc:JsonRpcError")).toBe(false);
  });
});
