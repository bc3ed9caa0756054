import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { PostExchange } from "./exchange";
import type { ResponseMode } from "./exchange";
import type { ConnectionWriter, HttpOut, OutHeaders } from "./io";
import { createSseStream } from "./stream";

/** A recording HttpOut: what the exchange sent, as JSON messages, and how many times it answered. */
function recorder() {
  const sent: { status: number; headers: OutHeaders; messages: JsonRpcMessage[] }[] = [];
  let streamText = "";
  let ends = 0;
  const writer: ConnectionWriter = {
    write: async (text) => {
      streamText += text;
    },
    end: () => {
      ends += 1;
    },
    closed: false,
    onClose: () => undefined,
  };
  const out: HttpOut = {
    send(status, headers, body) {
      const parsed = body === undefined ? [] : (JSON.parse(body) as JsonRpcMessage | JsonRpcMessage[]);
      sent.push({ status, headers, messages: Array.isArray(parsed) ? parsed : [parsed] });
    },
    stream(status, headers) {
      sent.push({ status, headers, messages: [] });
      return writer;
    },
    onAbort: () => undefined,
  };
  const streamed = (): JsonRpcMessage[] =>
    streamText
      .split("\n\n")
      .filter((block) => block.startsWith("data: "))
      .map((block) => JSON.parse(block.slice(6)) as JsonRpcMessage);
  return { out, sent, streamed, ends: () => ends };
}

const step = fc.oneof(
  fc.record({ kind: fc.constant("notify" as const) }),
  fc.record({ kind: fc.constant("answer" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("unencodable" as const), pick: fc.nat() }),
);

describe("PostExchange properties", () => {
  it("writes exactly the replies that resolved, ends once when finished and never before, refuses replies after", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 6 }), fc.array(step, { maxLength: 30 }), fc.constantFrom<ResponseMode>("auto", "json", "sse"), async (count, steps, mode) => {
        const { out, sent, streamed, ends } = recorder();
        const ids = Array.from({ length: count }, (_, i) => i + 1);
        let ended = 0;
        const related: JsonRpcMessage[] = [];
        const exchange = new PostExchange({
          info: { transport: "http" },
          out,
          mode,
          batch: count > 1,
          answered: count > 0,
          headers: {},
          openStream: (hooks) => createSseStream("s", { store: undefined, retryMs: 0, keepAliveMs: 0, closeAfterMs: 0 }, hooks),
          prime: false,
          unsolicited: async (payload) => {
            related.push(...(Array.isArray(payload) ? payload : [payload as JsonRpcMessage]));
          },
          onResponse: undefined,
          onEnd: () => {
            ended += 1;
          },
          fault: () => undefined,
        });
        const open = new Set(ids);
        const written: number[] = [];
        const pending: Promise<unknown>[] = [];
        for (const s of steps) {
          const live = [...open];
          if (s.kind === "notify") {
            if (live.length > 0) pending.push(exchange.reply({ jsonrpc: "2.0", method: "notifications/message", params: { n: written.length } }).catch(() => undefined));
            continue;
          }
          if (live.length === 0) break;
          const id = live[s.pick % live.length] as number;
          if (s.kind === "unencodable") {
            // a result JSON cannot carry: the reply rejects and nothing of it is written
            await expect(exchange.reply({ jsonrpc: "2.0", id, result: { n: 10n } })).rejects.toThrow();
            continue;
          }
          open.delete(id);
          written.push(id);
          pending.push(exchange.reply({ jsonrpc: "2.0", id, result: { id } }));
        }
        await Promise.all(pending);
        await new Promise((resolve) => setImmediate(resolve));
        expect(ended).toBe(0);
        exchange.finish();
        exchange.finish();
        await new Promise((resolve) => setImmediate(resolve));
        expect(ended).toBe(1);
        const responses = [...sent.flatMap((s) => s.messages), ...streamed()].filter((m) => "id" in m && !("method" in m));
        expect(responses.map((m) => (m as { id: number }).id).sort()).toEqual([...written].sort());
        expect(sent.length).toBe(1); // one HTTP answer: a JSON body, a 202, or one stream
        if (sent[0]?.status !== 200 || sent[0].messages.length > 0) expect(ends()).toBe(0);
        else expect(ends()).toBe(1);
        await expect(exchange.reply({ jsonrpc: "2.0", id: 999, result: {} })).rejects.toMatchObject({ code: "STREAM_GONE" });
        if (mode === "json") expect(streamed()).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
