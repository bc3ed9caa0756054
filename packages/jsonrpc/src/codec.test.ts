import { describe, expect, it } from "vitest";
import type { DecodeResult } from "./codec";
import { decode, encode } from "./codec";
import { DEFAULT_MAX_ID_LENGTH } from "./limits";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

function refused(result: DecodeResult): { code: number; id: unknown; message: string } {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return { code: result.error.error.code, id: result.error.id, message: result.error.error.message };
}

describe("decode: accepted messages", () => {
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":[1]}'],
    ['{"jsonrpc":"2.0","id":"x","method":"m","params":{"a":null}}'],
    ['{"jsonrpc":"2.0","id":-9007199254740991,"method":"m"}'],
    ['{"jsonrpc":"2.0","id":9007199254740991,"result":1}'],
    ['{"jsonrpc":"2.0","method":"note"}'],
    ['{"jsonrpc":"2.0","id":1,"result":null}'],
    ['{"jsonrpc":"2.0","id":1,"result":{"deep":[1,2]}}'],
    ['{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}'],
    ['{"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"","data":[1]}}'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","extra":true}'],
  ])("%s", (text) => {
    expect(decode(text)).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
    expect(decode(bytes(text))).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
  });

  it("returns plain objects that inherit from Object.prototype", () => {
    const result = decode('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":1}}}');
    if (!result.ok) throw new Error("refused");
    expect(Object.getPrototypeOf((result.payload as unknown as { params: object }).params)).toBe(Object.prototype);
  });
});

describe("decode: refused structure (-32600)", () => {
  it.each([
    ['{"jsonrpc":"1.0","id":1,"method":"m"}', 1, "jsonrpc"],
    ['{"id":1,"method":"m"}', 1, "jsonrpc"],
    ['{"jsonrpc":2.0,"id":1,"method":"m"}', 1, "jsonrpc"],
    ['{"jsonrpc":"2.0","id":1,"method":1}', 1, "method"],
    ['{"jsonrpc":"2.0","id":1,"Method":"m"}', null, "`method`, `result` or `error`"],
    ['{"jsonrpc":"2.0","id":null,"method":"m"}', null, "id"],
    ['{"jsonrpc":"2.0","id":true,"method":"m"}', null, "id"],
    ['{"jsonrpc":"2.0","id":{},"method":"m"}', null, "id"],
    ['{"jsonrpc":"2.0","id":[1],"method":"m"}', null, "id"],
    ['{"jsonrpc":"2.0","id":1e400,"method":"m"}', null, "id"],
    ['{"jsonrpc":"2.0","id":-1.5,"method":"m"}', null, "integer"],
    ['{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}', null, "send such an id as a string"],
    ['{"jsonrpc":"2.0","id":-9007199254740992,"method":"m"}', null, "integer"],
    ['{"jsonrpc":"2.0","id":1.5,"result":1}', null, "success response"],
    ['{"jsonrpc":"2.0","id":1e300,"error":{"code":1,"message":"x"}}', null, "id"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":"bar"}', 1, "params"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":null}', 1, "params"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":3}', 1, "params"],
    ['{"jsonrpc":"2.0","id":1,"method":"m","result":1}', 1, "together"],
    ['{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"x"}}', null, "both"],
    ['{"jsonrpc":"2.0","id":1}', null, "`method`, `result` or `error`"],
    ['{"jsonrpc":"2.0","result":1}', null, "success response"],
    ['{"jsonrpc":"2.0","id":null,"result":1}', null, "success response"],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"x"}}', null, "code"],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"x"}}', null, "code"],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":1}}', null, "message"],
    ['{"jsonrpc":"2.0","id":1,"error":"oops"}', null, "error"],
    ['{"jsonrpc":"2.0","id":1,"error":null,"result":null}', null, "both"],
    ["1", null, "object"],
    ['"text"', null, "object"],
    ["null", null, "object"],
    ["true", null, "object"],
  ])("%s", (text, id, reason) => {
    const error = refused(decode(text));
    expect(error.code).toBe(-32600);
    expect(error.id).toBe(id);
    expect(error.message).toContain("Invalid Request");
    expect(error.message).toContain(reason);
  });
});

describe("decode: parse errors (-32700, id null)", () => {
  it.each([[""], ["   "], ["{"], ['{"jsonrpc":"2.0","method":"foobar, "params": "bar", "baz]'], ["{'a':1}"], ["[1,]"], ["NaN"], ['{"a":1}x']])(
    "%j",
    (text) => {
      expect(refused(decode(text))).toMatchObject({ code: -32700, id: null });
    },
  );

  it("refuses invalid UTF-8 instead of replacing it with U+FFFD", () => {
    const valid = bytes('{"jsonrpc":"2.0","method":"m","params":["x"]}');
    const at = valid.indexOf(0x78); // the "x"
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80]]) {
      const input = new Uint8Array([...valid.subarray(0, at), ...bad, ...valid.subarray(at + 1)]);
      expect(refused(decode(input))).toMatchObject({ code: -32700, id: null });
    }
  });

  it("refuses a string holding a lone surrogate, but accepts an escaped one as data", () => {
    expect(refused(decode('{"jsonrpc":"2.0","method":"m","params":["\ud800"]}')).code).toBe(-32700);
    const escaped = decode('{"jsonrpc":"2.0","method":"m","params":["\\ud800"]}');
    expect(escaped.ok).toBe(true);
  });

  it("accepts multi-byte UTF-8 and surrogate pairs", () => {
    const text = '{"jsonrpc":"2.0","method":"m","params":["é✓😀"]}';
    expect(decode(bytes(text))).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
  });

  it("ignores one leading byte order mark (RFC 8259 section 8.1), in bytes and in text", () => {
    const text = '{"jsonrpc":"2.0","method":"m"}';
    expect(decode(`\ufeff${text}`).ok).toBe(true);
    expect(decode(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes(text)])).ok).toBe(true);
    expect(decode(`\ufeff\ufeff${text}`).ok).toBe(false);
  });
});

describe("decode: limits", () => {
  it("refuses a string id longer than DEFAULT_MAX_ID_LENGTH, answering with id null (never echoing it)", () => {
    const long = "x".repeat(DEFAULT_MAX_ID_LENGTH + 1);
    for (const text of [JSON.stringify({ jsonrpc: "2.0", id: long, method: "ping" }), JSON.stringify({ jsonrpc: "2.0", id: long, result: {} })]) {
      const result = decode(text);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining(`at most ${DEFAULT_MAX_ID_LENGTH} characters`) } });
    }
    expect(decode(JSON.stringify({ jsonrpc: "2.0", id: "x".repeat(DEFAULT_MAX_ID_LENGTH), method: "ping" })).ok).toBe(true);
  });

  const request = (padding: number): string => `{"jsonrpc":"2.0","id":7,"method":"m","params":["${"a".repeat(padding)}"]}`;

  it("refuses a message over maxMessageBytes before parsing, keeping the id", () => {
    const text = request(100);
    const max = text.length - 1;
    expect(decode(text, { maxMessageBytes: text.length }).ok).toBe(true);
    expect(refused(decode(text, { maxMessageBytes: max }))).toMatchObject({ code: -32600, id: 7 });
    expect(refused(decode(bytes(text), { maxMessageBytes: max }))).toMatchObject({ code: -32600, id: 7 });
  });

  it("counts UTF-8 bytes of strings, not UTF-16 units", () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":["${"é".repeat(1000)}"]}`;
    const size = bytes(text).length;
    expect(decode(text, { maxMessageBytes: size }).ok).toBe(true);
    expect(decode(text, { maxMessageBytes: size - 1 }).ok).toBe(false);
    const emoji = `{"jsonrpc":"2.0","id":1,"method":"m","params":["${"😀".repeat(20_000)}"]}`;
    const emojiSize = bytes(emoji).length;
    expect(decode(emoji, { maxMessageBytes: emojiSize }).ok).toBe(true);
    expect(decode(emoji, { maxMessageBytes: emojiSize - 1 }).ok).toBe(false);
  });

  it("defaults to 4 MiB", () => {
    const limit = 4 * 1024 * 1024;
    const base = request(0).length;
    expect(decode(request(limit - base)).ok).toBe(true);
    expect(decode(request(limit - base + 1)).ok).toBe(false);
  });

  it("refuses nesting past maxDepth, keeping the request id", () => {
    const nested = (depth: number): string =>
      `{"jsonrpc":"2.0","id":"q","method":"m","params":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
    expect(decode(nested(64)).ok).toBe(true);
    expect(refused(decode(nested(65)))).toMatchObject({ code: -32600, id: "q" });
    expect(refused(decode(bytes(nested(65))))).toMatchObject({ code: -32600, id: "q" });
    expect(decode(bytes(nested(64))).ok).toBe(true);
    expect(decode(nested(5), { maxDepth: 5 }).ok).toBe(true);
    expect(decode(nested(6), { maxDepth: 5 }).ok).toBe(false);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":["${"[{".repeat(200)}\\"${"[".repeat(100)}\\\\"]}`;
    expect(decode(text).ok).toBe(true);
  });

  it("refuses 10 MB of [ quickly and without a stack overflow", () => {
    const input = "[".repeat(10 * 1024 * 1024);
    expect(refused(decode(input, { maxMessageBytes: 16 * 1024 * 1024 }))).toMatchObject({ code: -32600, id: null });
    expect(refused(decode(bytes(input), { maxMessageBytes: 16 * 1024 * 1024 }))).toMatchObject({ code: -32600 });
    expect(refused(decode(input)).message).toContain("maxMessageBytes");
  });

  it("refuses 10 MB of { with keys the same way", () => {
    const input = '{"a":'.repeat(2 * 1024 * 1024);
    expect(refused(decode(input, { maxMessageBytes: 16 * 1024 * 1024 })).message).toContain("maxDepth");
  });

  it("throws a TypeError for limits that are not positive integers", () => {
    for (const limits of [{ maxMessageBytes: 0 }, { maxDepth: -1 }, { maxBatch: 1.5 }, { maxDepth: Number.NaN }]) {
      expect(() => decode("{}", limits)).toThrow(TypeError);
    }
  });
});

describe("decode: batches", () => {
  const call = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"m"}`;

  it("refuses an empty batch with one error object, not an array", () => {
    const result = decode("[]");
    expect(result).toEqual({ ok: false, error: { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32600 }) } });
  });

  it("refuses a batch over maxBatch as a whole", () => {
    const text = `[${Array.from({ length: 101 }, (_, i) => call(i)).join(",")}]`;
    expect(refused(decode(text))).toMatchObject({ code: -32600, id: null });
    const ok = decode(`[${Array.from({ length: 100 }, (_, i) => call(i)).join(",")}]`);
    expect(ok.ok && Array.isArray(ok.payload) && ok.payload.length).toBe(100);
    expect(decode(`[${call(1)},${call(2)}]`, { maxBatch: 1 }).ok).toBe(false);
  });

  it("splits valid and invalid elements", () => {
    const result = decode(`[${call(1)},1,{"jsonrpc":"2.0","id":2,"method":3},${call(3)},{"jsonrpc":"2.0","id":4,"method":"m","params":1}]`);
    if (!result.ok) throw new Error("refused");
    expect(result.payload).toEqual([JSON.parse(call(1)), JSON.parse(call(3))]);
    expect(result.invalid.map((failure) => [failure.id, failure.error.code])).toEqual([
      [null, -32600],
      [2, -32600],
      [4, -32600],
    ]);
  });

  it("keeps an all-invalid batch as an empty payload with every error", () => {
    const result = decode("[1,2,3]");
    expect(result.ok && result.payload).toEqual([]);
    expect(result.ok && result.invalid.length).toBe(3);
  });

  it("accepts batches of responses and mixed messages", () => {
    const text = '[{"jsonrpc":"2.0","id":1,"result":1},{"jsonrpc":"2.0","method":"n"}]';
    expect(decode(text)).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
  });
});

describe("decode: prototype safety", () => {
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort();
  it.each([
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"__proto__":{"polluted":1}}}', 1, -32602, '"__proto__" in params'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[{"__proto__":{"polluted":1}}]}}', 1, -32602, '"__proto__" in params.a[0]'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"\\u005f_proto__":{"polluted":1}}}', 1, -32602, '"__proto__" in params'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"constructor":{"prototype":{"polluted":1}}}}', 1, -32602, '"constructor.prototype" in params'],
    ['{"jsonrpc":"2.0","id":1,"method":"m","params":{"\\u0063onstructor":{"prot\\u006ftype":{"polluted":1}}}}', 1, -32602, '"constructor.prototype" in params'],
    ['{"jsonrpc":"2.0","id":"x","method":"m","params":{"a b":{"__proto__":1}}}', "x", -32602, '"__proto__" in params["a b"]'],
    ['{"__proto__":{"polluted":1},"jsonrpc":"2.0","method":"m"}', null, -32600, '"__proto__" at the top level'],
    ['{"jsonrpc":"2.0","id":1,"result":{"__proto__":{"polluted":1}}}', null, -32600, '"__proto__" in result'],
  ])("refuses %s", (text, id, code, where) => {
    const failure = refused(decode(text));
    expect(failure).toMatchObject({ code, id });
    expect(failure?.message).toContain(`the key ${where} is not accepted`);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(protoBefore);
  });

  it("accepts harmless uses of the words", () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"m","params":{"constructor":"x","prototype":{"a":1},"s":"__proto__","t":"\\u00e9"}}';
    expect(decode(text)).toEqual({ ok: true, payload: JSON.parse(text), invalid: [] });
  });

  it("refuses only the offending element of a batch", () => {
    const result = decode('[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m","params":{"__proto__":{}}}]');
    expect(result.ok && result.payload).toEqual([{ jsonrpc: "2.0", id: 1, method: "m" }]);
    expect(result.ok && result.invalid.map((failure) => failure.id)).toEqual([2]);
  });
});

describe("decode: other hostile input", () => {
  it("turns huge numbers into Infinity in data, and refuses them as ids", () => {
    const result = decode('{"jsonrpc":"2.0","id":1,"method":"m","params":[1e400,-1e400,123456789012345678901234567890]}');
    expect(result.ok && (result.payload as unknown as { params: number[] }).params).toEqual([Infinity, -Infinity, 1.2345678901234568e29]);
  });

  it("keeps the last of duplicate keys, as JSON.parse does", () => {
    const result = decode('{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}');
    expect(result.ok && (result.payload as unknown as { method: string }).method).toBe("b");
    expect(decode('{"jsonrpc":"2.0","id":1,"method":"a","method":1}').ok).toBe(false);
  });

  it("accepts whitespace JSON allows and refuses control characters inside strings", () => {
    expect(decode(' \n\t{ "jsonrpc" : "2.0" , "method" : "m" }\r\n ').ok).toBe(true);
    expect(decode('{"jsonrpc":"2.0","method":"m\u0001"}').ok).toBe(false);
  });
});

describe("encode", () => {
  it("is JSON.stringify of the payload", () => {
    const payload = { jsonrpc: "2.0", id: 1, result: { a: [1, "x"] } } as const;
    expect(encode(payload)).toBe(JSON.stringify(payload));
  });

  it("throws a TypeError for what JSON cannot hold", () => {
    expect(() => encode({ jsonrpc: "2.0", id: 1, result: 1n })).toThrow(TypeError);
  });

  it("round trips through decode", () => {
    const payload = [{ jsonrpc: "2.0", id: "a", result: { x: [1, 2] } }] as const;
    expect(decode(encode(payload))).toEqual({ ok: true, payload, invalid: [] });
  });
});

describe("decode: which refusals are answered", () => {
  const limits = { maxMessageBytes: 50 };
  const big = "x".repeat(100);

  it("marks an oversized response silent, so two peers cannot bounce errors forever", () => {
    const result = decode(`{"jsonrpc":"2.0","id":1,"result":"${big}"}`, limits);
    expect(result).toMatchObject({ ok: false, silent: true, error: { id: null } });
  });

  it("answers an oversized call (with its id), batch, or unreadable frame", () => {
    expect(decode(`{"jsonrpc":"2.0","id":1,"method":"m","params":["${big}"]}`, limits)).toEqual({
      ok: false,
      error: expect.objectContaining({ id: 1 }),
    });
    expect(decode(`[{"jsonrpc":"2.0","id":1,"method":"m","params":["${big}"]}]`, limits)).toEqual({
      ok: false,
      error: expect.objectContaining({ id: null }),
    });
    expect(decode(`garbage ${big}`, limits)).toEqual({ ok: false, error: expect.objectContaining({ id: null }) });
  });

  it("reads the id of an oversized call only from the top level", () => {
    const text = `{"jsonrpc":"2.0","params":{"id":"inner","method":"x"},"method":"m","id":"outer","pad":"${big}"}`;
    expect(decode(text, limits)).toMatchObject({ ok: false, error: { id: "outer" } });
    const escaped = `{"jsonrpc":"2.0","method":"m","id":"a\\"b","pad":"${big}"}`;
    expect(decode(escaped, limits)).toMatchObject({ ok: false, error: { id: 'a"b' } });
    const objectId = `{"jsonrpc":"2.0","method":"m","id":{"x":1},"pad":"${big}"}`;
    expect(decode(objectId, limits)).toMatchObject({ ok: false, error: { id: null } });
    const numberId = `{"jsonrpc":"2.0","method":"m","id" : -12.5e1 ,"pad":"${big}"}`;
    expect(decode(numberId, limits)).toMatchObject({ ok: false, error: { id: -125 } });
    // the rule of a parsed id: never echo a number that would come back altered, nor a fraction
    for (const id of ["9007199254740993", "1.5", `"${"x".repeat(300)}"`]) {
      expect(decode(`{"jsonrpc":"2.0","method":"m","id":${id},"pad":"${big}"}`, limits)).toMatchObject({ ok: false, error: { id: null } });
    }
  });
});
