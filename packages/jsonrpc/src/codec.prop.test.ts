import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage, JsonRpcPayload } from "./types";
import { decode, encode } from "./codec";
import { isDepthWithin, isDepthWithinBytes } from "./depth";

const RUNS = { numRuns: 300 };

/** JSON data with no prototype keys (decode refuses those on purpose; see the prototype property). */
const data = fc.jsonValue({ maxDepth: 6 }).filter((value) => !/__proto__|constructor/.test(JSON.stringify(value)));
const params = fc.oneof(fc.array(data, { maxLength: 4 }), fc.dictionary(fc.string(), data, { maxKeys: 4 }).filter((v) => !/__proto__|constructor/.test(JSON.stringify(v))));
/** Every id JSON-RPC/MCP allow: a string or a safe integer (fractions and numbers past 2^53 are refused). */
const id = fc.oneof(fc.string(), fc.maxSafeInteger().filter((n) => !Object.is(n, -0)));
const method = fc.string();

const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, method, params }, { requiredKeys: ["jsonrpc", "id", "method"] }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), method, params }, { requiredKeys: ["jsonrpc", "method"] }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, result: data }),
  fc.record({
    jsonrpc: fc.constant("2.0" as const),
    id: fc.oneof(id, fc.constant(null)),
    error: fc.record({ code: fc.integer(), message: fc.string(), data }, { requiredKeys: ["code", "message"] }),
  }),
);
const payload: fc.Arbitrary<JsonRpcPayload> = fc.oneof(message, fc.array(message, { minLength: 1, maxLength: 20 }));

function referenceDepth(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((max, child) => Math.max(max, referenceDepth(child)), 0);
}

function checkShape(result: ReturnType<typeof decode>): void {
  if (result.ok) {
    expect(typeof result.payload).toBe("object");
    expect(Array.isArray(result.invalid)).toBe(true);
  } else {
    expect([-32700, -32600]).toContain(result.error.error.code);
    expect(result.error.jsonrpc).toBe("2.0");
  }
}

describe("codec properties", () => {
  it("decode(encode(p)) gives back p, from text and from bytes", () => {
    fc.assert(
      fc.property(payload, (p) => {
        const text = encode(p);
        const expected = { ok: true, payload: JSON.parse(text), invalid: [] };
        expect(decode(text)).toEqual(expected);
        expect(decode(new TextEncoder().encode(text))).toEqual(expected);
      }),
      RUNS,
    );
  });

  it("decode never throws on arbitrary strings and bytes, and answers a payload or an error", () => {
    const strings = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.string({ unit: fc.constantFrom(..."[]{}\",:\\ 0123456789.eE-+truefalsn\u0000\ud800\udc00\ufeff".split("")) }),
      payload.map(encode).chain((text) => fc.nat(text.length).map((cut) => text.slice(0, cut))),
      payload.map(encode).chain((text) =>
        fc.tuple(fc.nat(text.length), fc.string({ unit: "binary", maxLength: 3 })).map(([at, junk]) => text.slice(0, at) + junk + text.slice(at)),
      ),
    );
    fc.assert(
      fc.property(strings, (text) => checkShape(decode(text, { maxDepth: 8, maxMessageBytes: 512 }))),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => checkShape(decode(bytes, { maxDepth: 8, maxBatch: 5 }))),
      { numRuns: 1000 },
    );
  });

  it("the depth guard agrees with a reference depth function", () => {
    const deep = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: "small" }, data, fc.array(tie("node"), { maxLength: 3 }), fc.dictionary(fc.string(), tie("node"), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(deep, fc.nat(12), fc.boolean(), (value, limit, pretty) => {
        const text = pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value);
        expect(isDepthWithin(text, limit)).toBe(referenceDepth(value) <= limit);
        expect(isDepthWithinBytes(new TextEncoder().encode(text), limit)).toBe(referenceDepth(value) <= limit);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.nat(200), fc.nat(100), fc.nat(150), (depth, siblings, limit) => {
        const nested = depth === 0 ? "0" : "[".repeat(depth) + "]".repeat(depth);
        const value = JSON.parse(`[${[...Array<string>(siblings).fill("[]"), nested].join(",")}]`) as unknown;
        const text = JSON.stringify(value);
        expect(isDepthWithin(text, limit)).toBe(referenceDepth(value) <= limit);
        expect(isDepthWithinBytes(new TextEncoder().encode(text), limit)).toBe(referenceDepth(value) <= limit);
      }),
      RUNS,
    );
  });

  it("leaves Object.prototype untouched, and what it accepts cannot pollute a naive deep merge", () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const keys = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "polluted", "a", "\\u005f_proto__");
    const json = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constantFrom("1", '"x"', "null", "true"),
        fc.array(tie("value"), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
        fc.array(fc.tuple(keys, tie("value")), { maxLength: 3 }).map((entries) => `{${entries.map(([k, v]) => `"${k}":${v}`).join(",")}}`),
      ),
    })).value;
    const merge = (target: Record<string, unknown>, source: unknown): void => {
      if (typeof source !== "object" || source === null) return;
      for (const key of Object.keys(source)) {
        const value = (source as Record<string, unknown>)[key];
        if (typeof value === "object" && value !== null) {
          if (typeof target[key] !== "object" || target[key] === null) target[key] = {};
          merge(target[key] as Record<string, unknown>, value);
        } else target[key] = value;
      }
    };
    fc.assert(
      fc.property(json, (paramsText) => {
        const result = decode(`{"jsonrpc":"2.0","id":1,"method":"m","params":${paramsText.startsWith("{") || paramsText.startsWith("[") ? paramsText : "[]"}}`);
        if (result.ok) merge({}, result.payload);
        expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
      }),
      { numRuns: 1000 },
    );
  });
});
