/**
 * The model of "every request gets exactly one answer or a documented drop": the frames a client
 * may send (single or batch; requests that answer at once, later, with a result JSON cannot carry,
 * or by throwing; notifications; cancellations of earlier requests), the server every transport
 * connects (a jsonrpc `Peer`, so the transports are tested and not MCP), and the check of what
 * came back. The drops are named as the @proto/jsonrpc README names them.
 */
import fc from "fast-check";
import { createPeer } from "@proto/jsonrpc";
import type { JsonRpcMessage, JsonRpcPayload, Peer, Transport } from "@proto/jsonrpc";
import { mcpCancellation } from "@proto/mcp-protocol";

/** Why a request may go unanswered, each with the README sentence that documents it. */
export const DROPS = {
  /** `notifications/cancelled` named the request while it ran: MCP forbids answering it. */
  cancelled: "the other side cancelled the request",
  /** The transport closed (the client left, a write failed) before the answer was written. */
  closed: "the peer is closed",
  /** The exchange's signal aborted: the HTTP client disconnected from the POST. */
  aborted: "the exchange's `signal` aborted",
} as const;

/** What a request does on the server. */
export type Kind = "ok" | "slow" | "big" | "throw";

/** One element of a frame. */
export type Element = { readonly kind: Kind } | { readonly kind: "note" } | { readonly kind: "cancel"; readonly pick: number };

/** One frame: a batch when `batch` (else only the first element is sent). */
export interface FramePlan {
  readonly batch: boolean;
  readonly elements: readonly Element[];
}

/** A run: frames, and where the client side closes (after sending frame `closeAt`, not waiting for its answers). */
export interface RunPlan {
  readonly frames: readonly FramePlan[];
  readonly closeAt: number | undefined;
}

const element: fc.Arbitrary<Element> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constantFrom<Kind>("ok", "slow", "big", "throw") }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("note" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }) },
);

/** Runs of 1 to 4 frames of 1 to 5 elements, closing after one of them in about a third of the runs. */
export const runPlan: fc.Arbitrary<RunPlan> = fc
  .array(fc.record({ batch: fc.boolean(), elements: fc.array(element, { minLength: 1, maxLength: 5 }) }), { minLength: 1, maxLength: 4 })
  .chain((frames) => fc.record({ frames: fc.constant(frames), closeAt: fc.option(fc.nat({ max: frames.length - 1 }), { nil: undefined, freq: 2 }) }));

/** A frame made concrete: the payload, the requests it holds (id to kind), the ids it cancels. */
export interface BuiltFrame {
  readonly payload: JsonRpcPayload;
  readonly requests: ReadonlyMap<number, Kind>;
  readonly cancels: readonly number[];
}

/** Turns a plan into frames with unique ids from 1; a cancellation names an earlier id (0 when none). */
export function buildFrames(plan: RunPlan): BuiltFrame[] {
  let next = 1;
  const frames: BuiltFrame[] = [];
  for (const f of plan.frames) {
    const requests = new Map<number, Kind>();
    const cancels: number[] = [];
    const messages = (f.batch ? f.elements : f.elements.slice(0, 1)).map((e): JsonRpcMessage => {
      if (e.kind === "note") return { jsonrpc: "2.0", method: "notifications/note" };
      if (e.kind === "cancel") {
        const target = next === 1 ? 0 : 1 + (e.pick % (next - 1));
        cancels.push(target);
        return { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: target, reason: "test" } };
      }
      const id = next++;
      requests.set(id, e.kind);
      return { jsonrpc: "2.0", id, method: e.kind };
    });
    frames.push({ payload: f.batch ? messages : (messages[0] as JsonRpcMessage), requests, cancels });
  }
  return frames;
}

const later = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

/** Connects the test server to a server-side transport: a `Peer` with the four kinds of requests and MCP cancellation. */
export async function serveOn(transport: Transport): Promise<Peer> {
  const peer = createPeer(transport, { cancellation: mcpCancellation });
  peer.handle("ok", (_params, ctx) => ctx.id);
  peer.handle("slow", async (_params, ctx) => {
    await later();
    return ctx.id;
  });
  peer.handle("big", async () => ({ n: 10n }));
  peer.handle("throw", () => {
    throw new Error("boom");
  });
  peer.handleNotification("notifications/note", () => undefined);
  await peer.start();
  return peer;
}

/** The responses among received messages. */
export function responsesOf(received: readonly JsonRpcMessage[]): { id: unknown; result?: unknown; error?: { code: number } }[] {
  return received.filter((m) => !("method" in m)) as { id: unknown; result?: unknown; error?: { code: number } }[];
}

/**
 * The property: no id answered twice, no answer to an id nobody sent, each answer right for its
 * kind (`big` and `throw` are -32603), and each request without an answer a documented drop:
 * cancelled (`DROPS.cancelled`), or sent in the frame the client closed after (`DROPS.closed`,
 * `DROPS.aborted`). Returns the drops it saw, by name.
 */
export function checkAnswers(
  frames: readonly BuiltFrame[],
  closeAt: number | undefined,
  received: readonly JsonRpcMessage[],
  closeDrop: "closed" | "aborted" = "closed",
): (keyof typeof DROPS)[] {
  const responses = responsesOf(received);
  const seen = new Map<unknown, number>();
  for (const r of responses) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
  const problems: string[] = [];
  for (const [id, count] of seen) if (count > 1) problems.push(`id ${String(id)} answered ${count} times`);
  const kinds = new Map<number, { kind: Kind; frame: number }>();
  frames.forEach((f, index) => f.requests.forEach((kind, id) => kinds.set(id, { kind, frame: index })));
  const cancelled = new Set(frames.flatMap((f) => f.cancels));
  const drops: (keyof typeof DROPS)[] = [];
  for (const r of responses) {
    const sent = typeof r.id === "number" ? kinds.get(r.id) : undefined;
    if (!sent) {
      problems.push(`an answer to id ${JSON.stringify(r.id)}, which no request carried: ${JSON.stringify(r)}`);
      continue;
    }
    const wanted = sent.kind === "big" || sent.kind === "throw" ? -32603 : undefined;
    if (wanted !== undefined ? r.error?.code !== wanted : r.result !== r.id) problems.push(`a wrong answer for a ${sent.kind} request: ${JSON.stringify(r)}`);
  }
  for (const [id, { kind, frame }] of kinds) {
    if (seen.has(id)) continue;
    if (cancelled.has(id)) drops.push("cancelled");
    else if (closeAt !== undefined && frame >= closeAt) drops.push(closeDrop);
    else problems.push(`request ${id} (${kind}, frame ${frame}) got no answer and is no documented drop`);
  }
  if (problems.length > 0) throw new Error(`${problems.join("\n")}\nframes: ${JSON.stringify(frames.map((f) => f.payload))}\nclosed after frame: ${String(closeAt)}`);
  return drops;
}

/** Resolves once `done()` holds, or after `ms`; then waits `settleMs` more so a second answer would be seen. */
export async function waitFor(done: () => boolean, ms = 5_000, settleMs = 20): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 2));
  await new Promise((resolve) => setTimeout(resolve, settleMs));
}

/** True once every request of frames before `upTo` that was not cancelled has an answer. */
export function answeredUpTo(frames: readonly BuiltFrame[], upTo: number, received: readonly JsonRpcMessage[]): boolean {
  const answered = new Set(responsesOf(received).map((r) => r.id));
  const cancelled = new Set(frames.flatMap((f) => f.cancels));
  return frames.slice(0, upTo).every((f) => [...f.requests.keys()].every((id) => answered.has(id) || cancelled.has(id)));
}
