/**
 * GET on the MCP endpoint (MCP 2025-11-25 transports, "Listening for Messages from the Server" and
 * "Resumability and Redelivery"): opens the session's standalone SSE stream, or, with
 * `Last-Event-ID`, replays what the client missed on that one stream and re-attaches it.
 */
import { encode } from "@proto/jsonrpc";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { HttpHeader, MediaType } from "../shared/headers";
import { authenticateRequest } from "./auth-step";
import { acceptsPriming, checkSessionVersion, checkVersion, findSession, versionOf } from "./context";
import type { CoreContext } from "./context";
import { HttpServerError, HttpFaultCode } from "./errors";
import { accepts, errorAnswer, isAnswer } from "./http-util";
import type { ConnectionWriter, HttpAnswer, HttpIn, OutHeaders } from "./io";
import type { Session } from "./session";
import { followStream } from "./follow";
import { sseMessage } from "./sse";

const MAX_EVENT_ID_LENGTH = 512;

/** Handles one GET and returns its answer (an SSE stream, or the refusal). */
export async function handleGet(ctx: CoreContext, input: HttpIn, cors: OutHeaders): Promise<HttpAnswer> {
  const { opts } = ctx;
  if (!accepts(input.header("accept"), MediaType.EventStream)) return errorAnswer(406, "Accept must list text/event-stream", cors);
  const auth = await authenticateRequest(opts, ctx.metadataUrl, input, cors);
  if (isAnswer(auth)) return auth;
  const lastEventId = input.header(HttpHeader.LastEventId);
  if (opts.stateless || (lastEventId === undefined && !opts.standaloneSse)) {
    return errorAnswer(405, "this server offers no standalone SSE stream; use POST", { ...cors, allow: opts.stateless ? "POST" : "POST, DELETE" });
  }
  const refused = checkVersion(ctx, input, cors);
  if (refused) return refused;
  const session = await findSession(ctx, input, cors, auth.principal);
  if (isAnswer(session)) return session;
  const mismatch = checkSessionVersion(input, session, cors);
  if (mismatch) return mismatch;
  if (session.id === undefined) return errorAnswer(405, "a stateless session has no standalone stream", cors);
  const headers: OutHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", ...cors, [HttpHeader.SessionId]: session.id };
  if (lastEventId !== undefined) return resume(ctx, session, lastEventId, headers);
  const prime = opts.eventStore !== undefined && acceptsPriming(versionOf(input, session), session);
  return { status: 200, headers, open: (connection) => session.listen(connection, prime) };
}

async function resume(ctx: CoreContext, session: Session, lastEventId: string, headers: OutHeaders): Promise<HttpAnswer> {
  const store = ctx.opts.eventStore;
  if (!store) {
    return errorAnswer(400, "this server keeps no events (no eventStore), so streams cannot be resumed; open a new GET without Last-Event-ID", headers);
  }
  let replay;
  try {
    replay = lastEventId.length > MAX_EVENT_ID_LENGTH ? undefined : await store.replay(lastEventId);
  } catch (cause) {
    ctx.fault(new HttpServerError(HttpFaultCode.EventStoreFailed, "event store replay failed", { cause }));
    return errorAnswer(503, "events cannot be replayed right now; retry later", { ...headers, "retry-after": "5" });
  }
  if (!replay || !session.owns(replay.streamId)) {
    return errorAnswer(400, "Last-Event-ID is unknown to this session or its events are no longer kept: resuming would lose events", headers);
  }
  if (replay.streamId === session.standaloneId) return { status: 200, headers, open: (connection) => session.listen(connection, false, lastEventId) };
  const live = session.live(replay.streamId);
  if (live) return { status: 200, headers, open: (connection) => live.resume(connection, lastEventId) };
  // a shared store: another instance still writes this stream, so it is followed from here
  if (replay.ended === false && store.follow !== undefined) {
    const follow = store.follow.bind(store);
    return { status: 200, headers, open: (connection) => followStream({ store, follow, settings: ctx.settings, fault: ctx.fault }, replay.streamId, lastEventId, connection) };
  }
  // the stream is complete: everything it will ever carry is in the store
  const { events } = replay;
  return {
    status: 200,
    headers,
    open: (connection) => void replayAll(connection, events),
  };
}

async function replayAll(connection: ConnectionWriter, events: readonly { readonly id: string; readonly message: JsonRpcMessage }[]): Promise<void> {
  for (const event of events) await connection.write(sseMessage(encode(event.message), event.id))?.catch(() => undefined);
  connection.end();
}
