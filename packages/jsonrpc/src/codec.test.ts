import { describe, expect, it } from "vitest";
import { decode, encode } from "./codec";

describe("decode", () => {
  it("decodes a request from text and bytes", () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}';
    expect(decode(text)).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
    expect(decode(new TextEncoder().encode(text))).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
  });

  it("refuses 10 MB of [ without a stack overflow", () => {
    const result = decode("[".repeat(10 * 1024 * 1024), { maxMessageBytes: 16 * 1024 * 1024 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.error.code).toBe(-32600);
  });

  it("round trips through encode", () => {
    const payload = [{ jsonrpc: "2.0", id: "a", result: { x: [1, 2] } }] as const;
    expect(decode(encode(payload))).toEqual({ ok: true, payload, invalid: [] });
  });
});
