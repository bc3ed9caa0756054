/**
 * Nothing lost when an instance dies (handler option `shared.journal`): each request a shared
 * session's POST answers on an SSE stream is journaled under this instance's lease, renewed by a
 * heartbeat; every heartbeat also claims the entries of instances whose lease expired. A claimed
 * request is answered exactly once on its own stream (the client resumes it with
 * `Last-Event-ID` on any instance). An instance claims nothing until its heartbeats have
 * succeeded for one lease (at start, after the store was unreachable: its peers' leases lapsed
 * too, and they renew them first). A claimed request is run again on this instance when
 * `shared.repeatable` says so (at most once, progress notifications left out: the client saw some
 * already, and progress must increase), else answered with -32603 `data: { reason: "instance_lost", retryable }`. The
 * server-to-client requests it had sent are cancelled first (`notifications/cancelled`).
 */
import type { Exchange, JsonRpcMessage, JsonRpcPayload, JsonRpcRequest, Principal } from "@proto/jsonrpc";
import { isRequest, JsonRpcErrorCode } from "@proto/jsonrpc";
import type { CoreContext } from "./context";
import { findShared } from "./context";
import { HttpFaultCode, HttpServerError } from "./errors";
import type { EventStore } from "./event-store";
import { isAnswer } from "./http-util";
import type { Session } from "./session";
import type { SharedContext } from "./shared";
import type { JournalEntry, RequestJournal } from "./shared-store";
import { every } from "./timers";

/** The reason a survivor gives for a request it could not run again. */
export const INSTANCE_LOST = "instance_lost";

function report(ctx: CoreContext, what: string) {
  return (cause: unknown): void => ctx.fault(new HttpServerError(HttpFaultCode.SharedStoreFailed, `${what} failed`, { cause }));
}

/**
 * Journals the request of a POST stream `streamId` (frames holding exactly one request); returns
 * the function that forgets it once the exchange is over.
 */
export function journalRequest(ctx: CoreContext, shared: SharedContext, journal: RequestJournal, session: Session, messages: readonly JsonRpcMessage[], principal: Principal | undefined, streamId: string, attempts = 0): () => void {
  const requests = messages.filter(isRequest);
  if (requests.length !== 1 || session.id === undefined) return () => undefined;
  const { token: _token, ...kept } = principal ?? { token: undefined };
  const entry: JournalEntry = { sessionId: session.id, streamId, request: requests[0] as JsonRpcRequest, outbound: [], attempts, ...(principal ? { principal: kept as Omit<Principal, "token"> } : {}) };
  const begun = Promise.resolve()
    .then(() => journal.begin(shared.instance, entry))
    .catch(report(ctx, `journaling a request of session ${session.id}`));
  return () => void begun.then(() => journal.end(shared.instance, streamId)).catch(report(ctx, "forgetting a journaled request"));
}

/** Starts the heartbeat and takeover loop; returns the function that stops it. */
export function startTakeover(ctx: CoreContext, shared: SharedContext, journal: RequestJournal): () => void {
  const leaseMs = shared.leaseMs;
  let running = false;
  // claims wait one lease after heartbeats (re)start: peers that lost the store too renew theirs first
  let healthySince: number | undefined;
  const beat = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      await journal.heartbeat(shared.instance, leaseMs);
      healthySince ??= Date.now();
      if (Date.now() - healthySince < leaseMs) return;
      const orphans = await journal.takeOver(shared.instance);
      await Promise.all(orphans.map((entry) => answerOrphan(ctx, shared, journal, entry).catch(report(ctx, `answering request ${JSON.stringify(entry.request.id)} of a lost instance`))));
    } catch (cause) {
      healthySince = undefined;
      report(ctx, "the request journal heartbeat")(cause);
    } finally {
      running = false;
    }
  };
  void beat();
  const timer = every(Math.max(50, Math.floor(leaseMs / 3)), () => void beat());
  return () => clearInterval(timer);
}

/** The -32603 answer of a request whose instance was lost. */
export function instanceLostError(request: JsonRpcRequest): JsonRpcMessage {
  const retryable = request.method !== "tools/call";
  const message = retryable
    ? "the server instance executing this request was lost; it is safe to send it again"
    : "the server instance executing this tool call was lost mid-call; the tool may or may not have taken effect: check before calling it again";
  return { jsonrpc: "2.0", id: request.id, error: { code: JsonRpcErrorCode.InternalError, message, data: { reason: INSTANCE_LOST, retryable } } };
}

async function answerOrphan(ctx: CoreContext, shared: SharedContext, journal: RequestJournal, entry: JournalEntry): Promise<void> {
  const store = ctx.opts.eventStore;
  if (store?.end === undefined) return;
  for (const requestId of entry.outbound) {
    await store.append(entry.streamId, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason: "the server instance that sent this request was lost" } });
  }
  if (entry.attempts < 1 && shared.repeatable?.(entry.request) === true) {
    const session = await findShared(ctx, shared, entry.sessionId, {}, entry.principal as Principal | undefined, undefined);
    if (!isAnswer(session) && session.sink !== undefined) return rerun(ctx, shared, journal, session, store, entry);
    if (isAnswer(session) && session.status === 404) return; // the session is gone: nobody reads the stream
  }
  await store.append(entry.streamId, instanceLostError(entry.request));
  await store.end(entry.streamId);
}

/** Runs the orphaned request again on `session`, its answer appended to the same stream. */
function rerun(ctx: CoreContext, shared: SharedContext, journal: RequestJournal, session: Session, store: EventStore, entry: JournalEntry): void {
  const forget = journalRequest(ctx, shared, journal, session, [entry.request], entry.principal as Principal | undefined, entry.streamId, entry.attempts + 1);
  let chain: Promise<unknown> = Promise.resolve();
  const controller = new AbortController();
  const exchange: Exchange = {
    info: { transport: "http", sessionId: entry.sessionId, ...(entry.principal ? { principal: entry.principal as Principal } : {}) },
    signal: controller.signal,
    reply(payload: JsonRpcPayload) {
      const messages = (Array.isArray(payload) ? payload : [payload]) as JsonRpcMessage[];
      const next = chain.then(async () => {
        for (const message of messages) {
          if ("method" in message && message.method === "notifications/progress") continue;
          const tagged = session.tagOutbound(message);
          if (tagged !== message && isRequest(tagged)) await Promise.resolve(journal.outbound(shared.instance, entry.streamId, String(tagged.id))).catch(report(ctx, "journaling an outbound request"));
          await store.append(entry.streamId, tagged);
        }
      });
      chain = next.catch(() => undefined);
      return next;
    },
    finish() {
      chain = chain.then(() => store.end?.(entry.streamId)).catch(report(ctx, `ending stream ${entry.streamId}`)).finally(forget);
    },
  };
  session.sink?.payload(entry.request, exchange);
}
