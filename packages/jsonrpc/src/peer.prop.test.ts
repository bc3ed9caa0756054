import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Exchange, JsonRpcPayload, Transport, TransportSink } from "./index";
import { createPeer, decode, deliverFrame, JsonRpcError } from "./index";

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

type Kind = "sync" | "async" | "throws" | "rejects" | "missing" | "note" | "invalid" | "response";
const kinds: readonly Kind[] = ["sync", "async", "throws", "rejects", "missing", "note", "invalid", "response"];

function element(kind: Kind, id: number): unknown {
  switch (kind) {
    case "note":
      return { jsonrpc: "2.0", method: "sync", params: [id] };
    case "invalid":
      return { jsonrpc: "2.0", method: id };
    case "response":
      return { jsonrpc: "2.0", id: `r${id}`, result: id };
    default:
      return { jsonrpc: "2.0", id, method: kind, params: [id] };
  }
}

async function createServer() {
  let sink: TransportSink | undefined;
  const transport: Transport = { start: async (s) => void (sink = s), send: async () => undefined, close: async () => sink?.closed() };
  const peer = createPeer(transport);
  const echo = (params: unknown) => (params as number[])[0];
  peer.handle("sync", echo);
  peer.handle("async", async (params) => {
    await Promise.resolve();
    return echo(params);
  });
  peer.handle("throws", () => {
    throw new JsonRpcError(-32000, "thrown");
  });
  peer.handle("rejects", async () => {
    throw new Error("internal");
  });
  peer.handleNotification("sync", () => undefined);
  await peer.start();
  return (text: string): Promise<JsonRpcPayload[]> => {
    const replies: JsonRpcPayload[] = [];
    const exchange: Exchange = { signal: new AbortController().signal, info: { transport: "test" }, reply: async (p) => void replies.push(p) };
    deliverFrame(decode(text), sink as TransportSink, exchange);
    return settle().then(settle).then(() => replies);
  };
}

describe("peer properties", () => {
  it("answers every request of a batch exactly once, in one reply, and never a notification", async () => {
    const send = await createServer();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 30 }), async (batchKinds) => {
        const batch = batchKinds.map((kind, i) => element(kind, i));
        const replies = await send(JSON.stringify(batch));
        const requestIds = batchKinds.flatMap((kind, i) => (["sync", "async", "throws", "rejects", "missing"].includes(kind) ? [i] : []));
        const invalidCount = batchKinds.filter((kind) => kind === "invalid").length;
        if (requestIds.length === 0 && invalidCount === 0) {
          expect(replies).toEqual([]);
          return;
        }
        expect(replies).toHaveLength(1);
        const reply = replies[0] as unknown as { id: number | null; result?: unknown; error?: { code: number } }[];
        expect(Array.isArray(reply)).toBe(true);
        expect(reply.filter((r) => r.id !== null).map((r) => r.id).sort((a, b) => (a as number) - (b as number))).toEqual(requestIds);
        expect(reply.filter((r) => r.id === null)).toHaveLength(invalidCount);
        for (const response of reply) {
          const kind = response.id === null ? "invalid" : batchKinds[response.id];
          const expected = { sync: response.id, async: response.id, throws: -32000, rejects: -32603, missing: -32601, invalid: -32600 }[kind as string];
          expect(response.result ?? response.error?.code).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("answers a single request exactly once and a single notification never", async () => {
    const send = await createServer();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...kinds), fc.nat(1000), async (kind, id) => {
        const replies = await send(JSON.stringify(element(kind, id)));
        expect(replies).toHaveLength(kind === "note" || kind === "response" ? 0 : 1);
      }),
      { numRuns: 200 },
    );
  });
});
