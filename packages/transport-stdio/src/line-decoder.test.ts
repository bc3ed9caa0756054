import { describe, expect, it } from "vitest";
import { JsonRpcErrorCode, JsonRpcFaultCode } from "@proto/jsonrpc";
import { createLineDecoder, DEFAULT_MAX_LINE_BYTES } from "./line-decoder";
import type { LineEvent } from "./line-decoder";
import { encodeLine } from "./line-encoder";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const payloads = (events: LineEvent[]): unknown[] =>
  events.flatMap((event) => (event.type === "frame" && event.result.ok ? [event.result.payload] : []));

describe("createLineDecoder", () => {
  it("decodes many lines in one chunk and one line over many chunks", () => {
    const decoder = createLineDecoder();
    const first = decoder.push(bytes('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n{"jsonrpc":"2.0",'));
    expect(payloads(first)).toEqual([{ jsonrpc: "2.0", method: "a" }, { jsonrpc: "2.0", method: "b" }]);
    expect(decoder.bufferedBytes).toBe(17);
    expect(decoder.push(bytes('"method"'))).toEqual([]);
    expect(payloads(decoder.push(bytes(':"c"}\n')))).toEqual([{ jsonrpc: "2.0", method: "c" }]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("accepts \\r\\n and skips blank and whitespace-only lines", () => {
    const decoder = createLineDecoder();
    const events = decoder.push(bytes('\n\r\n  \t\r\n{"jsonrpc":"2.0","id":1,"result":true}\r\n\n'));
    expect(events).toHaveLength(1);
    expect(payloads(events)).toEqual([{ jsonrpc: "2.0", id: 1, result: true }]);
  });

  it("answers a line of invalid UTF-8 with -32700, id null, and goes on", () => {
    const decoder = createLineDecoder();
    const bad = new Uint8Array([0x7b, 0xff, 0xfe, 0x7d, 0x0a]);
    const events = [...decoder.push(bad), ...decoder.push(bytes('{"jsonrpc":"2.0","method":"ok"}\n'))];
    expect(events[0]).toMatchObject({ type: "frame", result: { ok: false, error: { id: null, error: { code: JsonRpcErrorCode.ParseError } } } });
    expect(payloads(events)).toEqual([{ jsonrpc: "2.0", method: "ok" }]);
  });

  it("refuses a UTF-8 sequence split across chunks only if it is really invalid", () => {
    const decoder = createLineDecoder();
    const line = bytes('{"jsonrpc":"2.0","method":"é€😀"}\n');
    const events = [line.subarray(0, 27), line.subarray(27, 29), line.subarray(29)].flatMap((part) => decoder.push(part));
    expect(payloads(events)).toEqual([{ jsonrpc: "2.0", method: "é€😀" }]);
  });

  it("answers garbage with -32700 and a bad message with -32600, then goes on", () => {
    const decoder = createLineDecoder();
    const events = decoder.push(bytes('hello\n{"jsonrpc":"2.0","id":7}\n{"jsonrpc":"2.0","method":"x"}\n'));
    expect(events.map((event) => (event.type === "frame" && !event.result.ok ? event.result.error.error.code : "ok"))).toEqual([
      JsonRpcErrorCode.ParseError,
      JsonRpcErrorCode.InvalidRequest,
      "ok",
    ]);
  });

  it("drops an oversized line up to its newline, reports it once, and goes on", () => {
    const decoder = createLineDecoder({ maxLineBytes: 32 });
    const events = [
      ...decoder.push(bytes('{"jsonrpc":"2.0","method":"' + "x".repeat(20))),
      ...decoder.push(bytes("y".repeat(100))),
      ...decoder.push(bytes('"}\n{"jsonrpc":"2.0","method":"a"}\n')),
    ];
    expect(events.filter((event) => event.type === "error")).toHaveLength(1);
    // refused as the codec refuses a message too large to read (a call without id: id null), then reported
    expect(events[0]).toMatchObject({ type: "frame", result: { ok: false, error: { id: null, error: { code: -32600 } } } });
    expect(events[1]).toMatchObject({ type: "error", error: { code: JsonRpcFaultCode.Oversized } });
    expect(payloads(events)).toEqual([{ jsonrpc: "2.0", method: "a" }]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it("refuses an oversized request with the id read from the line's start, at once", () => {
    const decoder = createLineDecoder({ maxLineBytes: 64 });
    const events = decoder.push(bytes(`{"jsonrpc":"2.0","id":"r-1","method":"tools/call","params":{"x":"${"y".repeat(100)}`));
    expect(events[0]).toMatchObject({ type: "frame", result: { ok: false, error: { id: "r-1", error: { code: -32600, message: expect.stringContaining("maxMessageBytes (64 bytes)") } } } });
    expect(decoder.push(bytes('"}}\n'))).toEqual([]);
  });

  it("refuses an oversized response silently, carrying its id for the local side", () => {
    const decoder = createLineDecoder({ maxLineBytes: 64 });
    const events = decoder.push(bytes(`{"jsonrpc":"2.0","id":42,"result":{"x":"${"y".repeat(100)}"}}\n`));
    expect(events[0]).toMatchObject({ type: "frame", result: { ok: false, silent: true, responseId: 42 } });
  });

  it("follows limits.maxMessageBytes when maxLineBytes is not given", () => {
    const decoder = createLineDecoder({ limits: { maxMessageBytes: 40 } });
    expect(decoder.push(bytes(`{"jsonrpc":"2.0","id":1,"method":"${"m".repeat(40)}"}\n`)).map((e) => e.type)).toEqual(["frame", "error"]);
    expect(payloads(createLineDecoder({ limits: { maxMessageBytes: 40 } }).push(bytes('{"jsonrpc":"2.0","method":"abc"}\n')))).toHaveLength(1);
  });

  it("drops an oversized line that arrives whole in one chunk", () => {
    const decoder = createLineDecoder({ maxLineBytes: 10 });
    const events = decoder.push(bytes('{"jsonrpc":"2.0","method":"long"}\n{"jsonrpc":"2.0","method":"b"}\n'));
    expect(events.map((event) => event.type)).toEqual(["frame", "error", "frame", "error"]);
    const fits = createLineDecoder({ maxLineBytes: 31 });
    expect(payloads(fits.push(bytes('{"jsonrpc":"2.0","method":"ab"}\n')))).toEqual([{ jsonrpc: "2.0", method: "ab" }]);
    expect(fits.push(bytes('{"jsonrpc":"2.0","method":"abc"}\n'))[1]?.type).toBe("error");
  });

  it("decodes a last line without a newline at end(), and resets", () => {
    const decoder = createLineDecoder();
    expect(decoder.push(bytes('{"jsonrpc":"2.0","method":"last"}'))).toEqual([]);
    expect(payloads(decoder.end())).toEqual([{ jsonrpc: "2.0", method: "last" }]);
    expect(decoder.bufferedBytes).toBe(0);
    expect(decoder.end()).toEqual([]);
  });

  it("copies a small tail of a large chunk instead of pinning the chunk", () => {
    const decoder = createLineDecoder();
    const chunk = new Uint8Array(65_536).fill(0x20);
    chunk.set(bytes('\n{"jsonrpc"'), 65_536 - 11);
    decoder.push(chunk);
    expect(decoder.bufferedBytes).toBe(10);
    expect(payloads(decoder.push(bytes(':"2.0","method":"m"}\n')))).toEqual([{ jsonrpc: "2.0", method: "m" }]);
  });

  it("passes codec limits through", () => {
    const decoder = createLineDecoder({ limits: { maxDepth: 2 } });
    const [event] = decoder.push(bytes('{"jsonrpc":"2.0","method":"m","params":{"a":{"b":{}}}}\n'));
    expect(event).toMatchObject({ type: "frame", result: { ok: false } });
  });

  it("refuses a maxLineBytes that is not a positive integer", () => {
    for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createLineDecoder({ maxLineBytes: value })).toThrow(TypeError);
    }
    expect(DEFAULT_MAX_LINE_BYTES).toBe(4 * 1024 * 1024);
    expect(() => createLineDecoder({ limits: { maxDepth: 0 } })).toThrow(TypeError);
  });
});

describe("encodeLine", () => {
  it("writes one line per payload, with no embedded newline", () => {
    const line = encodeLine({ jsonrpc: "2.0", method: "m", params: { text: "a\nb\r\u2028" } });
    expect(line.endsWith("\n")).toBe(true);
    expect(line.slice(0, -1)).not.toMatch(/[\n\r]/);
    expect(JSON.parse(line)).toEqual({ jsonrpc: "2.0", method: "m", params: { text: "a\nb\r\u2028" } });
  });

  it("throws a TypeError for a payload JSON cannot carry", () => {
    expect(() => encodeLine({ jsonrpc: "2.0", method: "m", params: { n: 1n } })).toThrow(TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => encodeLine({ jsonrpc: "2.0", method: "m", params: cyclic })).toThrow(TypeError);
  });
});
