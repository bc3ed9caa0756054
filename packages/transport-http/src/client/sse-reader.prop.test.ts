import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isHttpClientError } from "./http-error";
import { readSse } from "./sse-reader";
import type { SseEvent } from "./sse-reader";

interface Spec {
  readonly id?: string;
  readonly event?: string;
  readonly lines: readonly string[];
}

const noBreaks = (s: string): boolean => !/[\r\n\0]/.test(s);
const field = fc.string({ minLength: 1, maxLength: 12, unit: "grapheme-ascii" }).filter((s) => noBreaks(s) && !s.startsWith(" "));
const line = fc.string({ maxLength: 40, unit: "grapheme" }).filter(noBreaks);
const spec: fc.Arbitrary<Spec> = fc.record(
  { id: field, event: field, lines: fc.array(line, { minLength: 1, maxLength: 4 }) },
  { requiredKeys: ["lines"] },
);

function encodeStream(specs: readonly Spec[], retry: number | undefined): Uint8Array {
  let text = retry === undefined ? "" : `retry: ${retry}\n\n`;
  for (const s of specs) {
    if (s.id !== undefined) text += `id: ${s.id}\n`;
    if (s.event !== undefined) text += `event: ${s.event}\n`;
    for (const l of s.lines) text += `data: ${l}\n`;
    text += "\n";
  }
  return new TextEncoder().encode(text);
}

/** A body that yields `bytes` cut at `cuts` (any byte offsets, also inside a UTF-8 sequence). */
function chunked(bytes: Uint8Array, cuts: readonly number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

describe("readSse properties", () => {
  it("reads the same events and retry from any chunking of an encoded stream", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { maxLength: 8 }), fc.option(fc.nat(100_000), { nil: undefined }), fc.array(fc.nat()), async (specs, retry, cuts) => {
        const events: SseEvent[] = [];
        const retries: number[] = [];
        const end = await readSse(chunked(encodeStream(specs, retry), cuts), { event: (e) => void events.push(e), retry: (ms) => void retries.push(ms) }, 1 << 20);
        expect(end).toBe("ended");
        expect(events).toEqual(specs.map((s) => ({ id: s.id, event: s.event, data: s.lines.join("\n") })));
        expect(retries).toEqual(retry === undefined ? [] : [retry]);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws anything but an HttpClientError, and never hangs, on arbitrary bytes", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2_000 }), fc.array(fc.nat()), fc.integer({ min: 1, max: 256 }), async (bytes, cuts, max) => {
        try {
          await readSse(chunked(bytes, cuts), { event: () => undefined, retry: () => undefined }, max);
        } catch (error) {
          expect(isHttpClientError(error)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it("stops reading when a handler says the stream is complete", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 8 }), fc.nat(), async (specs, pick) => {
        const stopAt = pick % specs.length;
        let seen = 0;
        const end = await readSse(chunked(encodeStream(specs, undefined), []), { event: () => seen++ === stopAt, retry: () => undefined }, 1 << 20);
        expect(end).toBe("stopped");
        expect(seen).toBe(stopAt + 1);
      }),
    );
  });
});
