import { JsonRpcError } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { checkRequestMeta, hasProtocolClaim, isProgressToken, parseRequestEnvelope } from "./envelope";
import { isModernProtocolVersion } from "./versions";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";

function code(fn: () => unknown): number | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error instanceof JsonRpcError ? error.code : -1;
  }
}

describe("hasProtocolClaim", () => {
  it("is the presence of the key, whatever its value", () => {
    expect(hasProtocolClaim({ _meta: { [V]: "2026-07-28" } })).toBe(true);
    expect(hasProtocolClaim({ _meta: { [V]: 42 } })).toBe(true);
    expect(hasProtocolClaim({ _meta: { [V]: undefined } })).toBe(true);
    expect(hasProtocolClaim({ _meta: {} })).toBe(false);
    expect(hasProtocolClaim({})).toBe(false);
    expect(hasProtocolClaim(undefined)).toBe(false);
    expect(hasProtocolClaim([{ _meta: { [V]: "x" } }])).toBe(false);
    expect(hasProtocolClaim({ _meta: Object.create({ [V]: "2026-07-28" }) })).toBe(false);
  });
  it("never decides by string order", () => {
    expect(isModernProtocolVersion("2026-07-28")).toBe(true);
    expect(isModernProtocolVersion("v999.0.0")).toBe(false);
    expect(isModernProtocolVersion("2099-01-01")).toBe(false);
    expect(isModernProtocolVersion("2025-11-25")).toBe(false);
  });
});

describe("parseRequestEnvelope", () => {
  it("reads every key", () => {
    const env = parseRequestEnvelope({
      _meta: { [V]: "2026-07-28", [C]: { sampling: {} }, "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" }, "io.modelcontextprotocol/logLevel": "info", progressToken: 7 },
    });
    expect(env).toEqual({ protocolVersion: "2026-07-28", clientCapabilities: { sampling: {} }, clientInfo: { name: "c", version: "1" }, logLevel: "info", progressToken: 7 });
  });
  it("answers -32602 for every malformed part", () => {
    const bad: unknown[] = [
      undefined,
      [],
      {},
      { _meta: null },
      { _meta: { [V]: 1, [C]: {} } },
      { _meta: { [V]: "2026-07-28" } },
      { _meta: { [V]: "2026-07-28", [C]: [] } },
      { _meta: { [V]: "2026-07-28", [C]: { sampling: true } } },
      { _meta: { [V]: "2026-07-28", [C]: {}, "io.modelcontextprotocol/clientInfo": { name: "x" } } },
      { _meta: { [V]: "2026-07-28", [C]: {}, "io.modelcontextprotocol/clientInfo": "x" } },
      { _meta: { [V]: "2026-07-28", [C]: {}, "io.modelcontextprotocol/logLevel": "loud" } },
      { _meta: { [V]: "2026-07-28", [C]: {}, progressToken: 1.5 } },
      { _meta: { [V]: "2026-07-28", [C]: {}, progressToken: null } },
      { _meta: { [V]: "2026-07-28", [C]: {}, progressToken: 2 ** 53 } },
    ];
    for (const params of bad) expect(code(() => parseRequestEnvelope(params))).toBe(-32602);
  });
});

describe("checkRequestMeta: the _meta rule of every request, both eras", () => {
  it("accepts absent or plain _meta with a string or safe-integer progress token", () => {
    for (const params of [undefined, [], {}, { _meta: {} }, { _meta: { progressToken: "t" } }, { _meta: { progressToken: -(2 ** 53 - 1) } }, { _meta: { other: 1.5 } }]) {
      expect(code(() => checkRequestMeta(params))).toBeUndefined();
    }
  });

  it("refuses a _meta that is not an object and a fractional, huge or non-scalar progress token with -32602", () => {
    for (const params of [{ _meta: 5 }, { _meta: [] }, { _meta: null }, { _meta: { progressToken: 1.5 } }, { _meta: { progressToken: 2 ** 53 } }, { _meta: { progressToken: {} } }, { _meta: { progressToken: null } }]) {
      expect(code(() => checkRequestMeta(params))).toBe(-32602);
    }
    expect(() => checkRequestMeta({ _meta: { progressToken: 1.5 } })).toThrow(/progressToken must be a string or an integer .* got 1\.5/);
  });

  it("isProgressToken follows the request id rule", () => {
    expect([isProgressToken("a"), isProgressToken(0), isProgressToken(2 ** 53 - 1)]).toEqual([true, true, true]);
    expect([isProgressToken(0.5), isProgressToken(2 ** 53), isProgressToken(Number.NaN), isProgressToken(null)]).toEqual([false, false, false, false]);
  });
});
