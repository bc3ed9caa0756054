import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decode } from "@proto/jsonrpc";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { createLineDecoder } from "./line-decoder";
import type { LineDecoder, LineEvent } from "./line-decoder";
import { encodeLine } from "./line-encoder";

const encoder = new TextEncoder();

const id = fc.oneof(fc.integer(), fc.string({ maxLength: 8 }));
const params = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), { nil: undefined });
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, method: fc.string({ minLength: 1, maxLength: 10 }), params }, { requiredKeys: ["jsonrpc", "id", "method"] }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), method: fc.string({ minLength: 1, maxLength: 10 }), params }, { requiredKeys: ["jsonrpc", "method"] }),
  fc.record({ jsonrpc: fc.constant("2.0" as const), id, result: fc.jsonValue({ maxDepth: 3 }) }),
);
// Ends of lines as peers write them: \n or \r\n, sometimes followed by blank lines.
const ending = fc.constantFrom("\n", "\r\n", "\n\n", "\r\n  \r\n");

/** Splits `data` at the given cut points (any order, duplicates allowed). */
function cut(data: Uint8Array, points: number[]): Uint8Array[] {
  const sorted = [...new Set(points.map((point) => point % (data.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const point of sorted) {
    parts.push(data.subarray(start, point));
    start = point;
  }
  parts.push(data.subarray(start));
  return parts;
}

function feed(decoder: LineDecoder, parts: Uint8Array[], max: number): LineEvent[] {
  const events: LineEvent[] = [];
  for (const part of parts) {
    events.push(...decoder.push(part));
    expect(decoder.bufferedBytes).toBeLessThanOrEqual(max);
  }
  events.push(...decoder.end());
  return events;
}

/** The obvious model: split on \n, drop one \r, skip blank lines, refuse long ones, decode the rest. */
function model(data: Uint8Array, max: number): unknown[] {
  const out: unknown[] = [];
  let start = 0;
  while (start < data.length) {
    let end = data.indexOf(0x0a, start);
    const terminated = end !== -1;
    if (!terminated) end = data.length;
    const line = data.subarray(start, end);
    if (line.length > max) out.push("refused-oversized", "oversized");
    else {
      const body = line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line;
      if (!body.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d)) out.push(decode(body));
    }
    start = end + 1;
  }
  return out;
}

const tooLarge = (event: LineEvent): boolean => event.type === "frame" && !event.result.ok && event.result.error.error.message.includes("exceeds maxMessageBytes");
// An oversized line's refusal depends on how much of it had arrived (its id may come later): checked on its own below.
const simplify = (events: LineEvent[]): unknown[] => events.map((event) => (event.type === "error" ? "oversized" : tooLarge(event) ? "refused-oversized" : event.result));

describe("line decoder properties", () => {
  it("decodes any sequence of payloads, cut anywhere, to the same sequence", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.oneof(message, fc.array(message, { minLength: 1, maxLength: 3 })), ending), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), (frames, points) => {
        const text = frames.map(([payload, end]) => encodeLine(payload).slice(0, -1) + end).join("");
        const events = feed(createLineDecoder(), cut(encoder.encode(text), points), 4 * 1024 * 1024);
        // The codec's verdict on each payload (it refuses prototype keys, for one), line for line.
        expect(simplify(events)).toEqual(frames.map(([payload]) => decode(encodeLine(payload).slice(0, -1))));
        const sane = frames.filter(([payload]) => !JSON.stringify(payload).includes("__proto__"));
        if (sane.length === frames.length) {
          const decoded = events.map((event) => (event.type === "frame" && event.result.ok ? event.result.payload : event));
          expect(decoded).toEqual(frames.map(([payload]) => JSON.parse(JSON.stringify(payload))));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("on any byte stream: never throws, never buffers past the limit, and matches the line model", () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constant(0x0a), fc.constant(0x0d), fc.constant(0x7b));
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(byte, { maxLength: 40 }), fc.integer({ min: 1, max: 64 }), fc.array(fc.nat(), { maxLength: 30 }), (noise, extra, max, points) => {
        const data = new Uint8Array([...noise, ...extra]);
        const events = feed(createLineDecoder({ maxLineBytes: max }), cut(data, points), max);
        expect(simplify(events)).toEqual(model(data, max));
      }),
      { numRuns: 400 },
    );
  });

  it("refuses an oversized call with its own id or null, never another, however it is cut", () => {
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.string({ maxLength: 12 })), fc.integer({ min: 1, max: 80 }), fc.array(fc.nat(), { maxLength: 10 }), (callId, max, points) => {
        // `method` before `id`: the id is then echoed as soon as it is read, so a cut inside it would show
        const line = encoder.encode(`{"jsonrpc":"2.0","method":"m","id":${JSON.stringify(callId)},"params":{"pad":"${"p".repeat(max)}"}}\n`);
        const refusals = feed(createLineDecoder({ maxLineBytes: max }), cut(line, points), max).filter(tooLarge);
        expect(refusals).toHaveLength(1);
        const event = refusals[0] as LineEvent & { type: "frame"; result: { ok: false; error: { id: unknown } } };
        expect([callId, null]).toContainEqual(event.result.error.id);
      }),
      { numRuns: 400 },
    );
  });

  it("mixes valid frames with garbage, long lines and invalid UTF-8: the valid frames all get through", () => {
    const junk = fc.oneof(fc.constant("not json"), fc.constant("x".repeat(80)), fc.constant("\u00ff"), fc.string({ maxLength: 20 }).map((s) => s.replace(/\n/g, "")));
    fc.assert(
      fc.property(fc.array(fc.oneof(message.map((m) => ({ m })), junk.map((j) => ({ j }))), { maxLength: 15 }), fc.array(fc.nat(), { maxLength: 20 }), (items, points) => {
        const parts = items.map((item) => ("m" in item ? encoder.encode(encodeLine(item.m)) : item.j === "\u00ff" ? new Uint8Array([0xc3, 0x28, 0x0a]) : encoder.encode(`${item.j}\n`)));
        const data = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        parts.reduce((offset, p) => (data.set(p, offset), offset + p.length), 0);
        const max = 60;
        const events = feed(createLineDecoder({ maxLineBytes: max }), cut(data, points), max);
        const got = events.flatMap((event) => (event.type === "frame" && event.result.ok ? [event.result.payload] : []));
        const expected = items.flatMap((item) => {
          if (!("m" in item)) return [];
          const line = encodeLine(item.m).slice(0, -1);
          const result = decode(line);
          return encoder.encode(line).length <= max && result.ok ? [result.payload] : [];
        });
        expect(got.filter((payload) => expected.some((e) => JSON.stringify(e) === JSON.stringify(payload)))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });
});
