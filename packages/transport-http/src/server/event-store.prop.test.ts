import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { createMemoryEventStore } from "./event-store";

const note = (n: number): JsonRpcMessage => ({ jsonrpc: "2.0", method: "n", params: { n } });

describe("createMemoryEventStore properties", () => {
  it("a replay is exactly the suffix after the id on its stream, or refused: never a gap, never another stream", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: 40 }),
        (streams, perStream, total) => {
          const store = createMemoryEventStore({ maxEventsPerStream: perStream, maxEvents: total });
          const written: { stream: string; id: string; n: number }[] = [];
          streams.forEach((s, n) => {
            const stream = `s${s}`;
            written.push({ stream, id: store.append(stream, note(n)) as string, n });
          });
          expect(new Set(written.map((w) => w.id)).size).toBe(written.length);
          for (const [index, w] of written.entries()) {
            const replay = store.replay(w.id) as ReturnType<typeof store.replay> & { streamId: string; events: { message: JsonRpcMessage }[] } | undefined;
            if (replay === undefined) continue;
            const expected = written.slice(index + 1).filter((x) => x.stream === w.stream).map((x) => note(x.n));
            expect(replay.streamId).toBe(w.stream);
            expect(replay.events.map((e) => e.message)).toEqual(expected);
          }
          // the newest event of every stream still held is always resumable
          const last = new Map(written.map((w) => [w.stream, w.id]));
          let held = 0;
          for (const id of last.values()) if (store.replay(id) !== undefined) held += 1;
          expect(held).toBeGreaterThan(0);
        },
      ),
    );
  });
});
