import { JsonRpcError } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { hasProtocolClaim, parseRequestEnvelope } from "./envelope";
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
    ];
    for (const params of bad) expect(code(() => parseRequestEnvelope(params))).toBe(-32602);
  });
});
