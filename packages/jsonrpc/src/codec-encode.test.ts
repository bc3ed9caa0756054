import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encode, encodeOnce } from "./codec";
import type { JsonRpcPayload } from "./types";

const envelope = () => ({ "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": { roots: {}, sampling: { tools: {} } }, "io.modelcontextprotocol/clientInfo": { name: "c \"quoted\" \u2028", version: "1" } });

describe("encode with a _meta given to encodeOnce", () => {
  it("writes the same JSON as JSON.stringify for a call, with or without an id, the shared _meta last", () => {
    const meta = encodeOnce(envelope());
    const request = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { text: "a\nb" }, _meta: meta } } as const;
    expect(encode(request as unknown as JsonRpcPayload)).toBe(JSON.stringify(request));
    const notice = { jsonrpc: "2.0", method: "notifications/x", params: { _meta: meta, n: 1 } };
    expect(JSON.parse(encode(notice as unknown as JsonRpcPayload))).toEqual(notice);
    const withStringId = { jsonrpc: "2.0", id: "r\"1", method: "m", params: { _meta: meta } };
    expect(JSON.parse(encode(withStringId as unknown as JsonRpcPayload))).toEqual(withStringId);
  });

  it("freezes the object and keeps JSON.stringify's rules for the other keys (undefined dropped, toJSON, inherited keys, extra top-level keys)", () => {
    const meta = encodeOnce(envelope());
    expect(Object.isFrozen(meta)).toBe(true);
    const dropped = { jsonrpc: "2.0", id: 1, method: "m", params: { a: undefined, b: [undefined, Number.NaN], d: new Date(0), _meta: meta } };
    expect(JSON.parse(encode(dropped as unknown as JsonRpcPayload))).toEqual(JSON.parse(JSON.stringify(dropped)));
    const inherited = Object.assign(Object.create({ hidden: 1 }) as Record<string, unknown>, { shown: 2, _meta: meta });
    expect(JSON.parse(encode({ jsonrpc: "2.0", id: 2, method: "m", params: inherited } as unknown as JsonRpcPayload))).toEqual({ jsonrpc: "2.0", id: 2, method: "m", params: { shown: 2, _meta: JSON.parse(JSON.stringify(meta)) } });
    const own = { jsonrpc: "2.0", id: 3, method: "m", params: { _meta: meta, toJSON: () => "custom" } };
    expect(encode(own as unknown as JsonRpcPayload)).toBe(JSON.stringify(own));
    const extra = { jsonrpc: "2.0", id: 4, method: "m", params: { _meta: meta }, more: true };
    expect(encode(extra as unknown as JsonRpcPayload)).toBe(JSON.stringify(extra));
  });

  it("round-trips any JSON params around a shared _meta like JSON.stringify", () => {
    const meta = encodeOnce(envelope());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.oneof(fc.integer(), fc.string()), (params, id) => {
        const message = { jsonrpc: "2.0", id, method: "tools/call", params: { ...params, _meta: meta } };
        expect(JSON.parse(encode(message as unknown as JsonRpcPayload))).toEqual(JSON.parse(JSON.stringify(message)));
      }),
    );
  });
});
