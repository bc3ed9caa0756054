import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createPeer, encode } from "./index";
import type { Exchange, JsonRpcMessage, JsonRpcPayload, Transport, TransportSink } from "./index";

// One frame element: a request of some kind, a notification, or a cancellation of an earlier id.
const element = fc.oneof(
  fc.record({ kind: fc.constantFrom("ok" as const, "slow" as const, "big" as const, "throw" as const) }),
  fc.record({ kind: fc.constant("note" as const) }),
  fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
);
const frame = fc.record({
  batch: fc.boolean(),
  elements: fc.array(element, { minLength: 1, maxLength: 6 }),
  // the stream this frame came on rejects every write (the client went away)
  broken: fc.boolean(),
});

interface Recorded {
  readonly exchange: Exchange;
  readonly replies: JsonRpcPayload[];
  finished: number;
  repliedAfterFinish: boolean;
}

/** An exchange that writes like a real one: encoding first (a BigInt rejects), nothing written on a rejection. */
function exchangeOf(broken: boolean): Recorded {
  const recorded: Recorded = {
    replies: [],
    finished: 0,
    repliedAfterFinish: false,
    exchange: {
      signal: new AbortController().signal,
      info: { transport: "test" },
      reply(payload) {
        if (recorded.finished > 0) recorded.repliedAfterFinish = true;
        try {
          encode(payload);
        } catch (error) {
          return Promise.reject(error);
        }
        if (broken) return Promise.reject(new Error("stream gone"));
        recorded.replies.push(payload);
        return Promise.resolve();
      },
      finish() {
        recorded.finished += 1;
      },
    },
  };
  return recorded;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("Peer frame completion", () => {
  it("finishes every frame exactly once, after its last write; every request answered once or dropped as documented", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 5 }), fc.option(fc.nat({ max: 5 }), { nil: undefined }), async (frames, closeAfter) => {
        let sink: TransportSink | undefined;
        const transport: Transport = {
          start: async (s) => void (sink = s),
          send: async () => undefined,
          close: async () => sink?.closed(),
        };
        const peer = createPeer(transport, { cancellation: { method: "cancel", params: (id) => ({ id }), requestId: (p) => (p as { id: number }).id } });
        peer.handle("ok", (_p, ctx) => ctx.id);
        peer.handle("slow", async (_p, ctx) => {
          await tick();
          return ctx.id;
        });
        peer.handle("big", async () => ({ n: 10n }));
        peer.handle("throw", () => {
          throw new Error("boom");
        });
        await peer.start();
        let nextId = 1;
        const ids: number[] = [];
        const recorded: { r: Recorded; requests: Map<number, string>; broken: boolean }[] = [];
        const cancelled = new Set<number>();
        let closedAt = Number.POSITIVE_INFINITY;
        for (const [index, f] of frames.entries()) {
          if (closeAfter === index) {
            closedAt = nextId;
            await peer.close();
          }
          const requests = new Map<number, string>();
          const messages: JsonRpcMessage[] = (f.batch ? f.elements : f.elements.slice(0, 1)).map((e) => {
            if (e.kind === "note") return { jsonrpc: "2.0", method: "note" };
            if (e.kind === "cancel") {
              const target = ids.length === 0 ? 0 : (ids[e.pick % ids.length] as number);
              cancelled.add(target);
              return { jsonrpc: "2.0", method: "cancel", params: { id: target } };
            }
            const id = nextId++;
            ids.push(id);
            requests.set(id, e.kind);
            return { jsonrpc: "2.0", id, method: e.kind };
          });
          const r = exchangeOf(f.broken);
          recorded.push({ r, requests, broken: f.broken });
          const payload = f.batch ? messages : (messages[0] as JsonRpcMessage);
          sink?.payload(payload, r.exchange);
        }
        for (let i = 0; i < 5; i++) await tick();
        for (const { r, requests, broken } of recorded) {
          expect(r.finished).toBe(1);
          expect(r.repliedAfterFinish).toBe(false);
          const responses = r.replies.flatMap((p) => (Array.isArray(p) ? p : [p])).filter((m) => !("method" in m)) as { id: number; result?: unknown; error?: { code: number } }[];
          const answered = responses.map((m) => m.id);
          expect(new Set(answered).size).toBe(answered.length); // never twice
          for (const id of answered) expect(requests.has(id)).toBe(true); // never a response to a notification
          for (const [id, kind] of requests) {
            const response = responses.find((m) => m.id === id);
            // the documented drops: a broken stream, a closed peer, a cancellation (of a request still running)
            const running = kind === "slow" || kind === "big"; // still running when a later message arrives
            const mayDrop = broken || id >= closedAt || (running && (cancelled.has(id) || closedAt !== Number.POSITIVE_INFINITY));
            if (response === undefined) {
              expect(mayDrop).toBe(true);
              continue;
            }
            if (kind === "big" || kind === "throw") expect(response.error?.code).toBe(-32603);
            else expect(response.result).toBe(id);
          }
        }
        await peer.close();
      }),
      { numRuns: 300 },
    );
  });
});
