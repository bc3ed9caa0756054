/**
 * GET on the MCP endpoint (MCP 2025-11-25 transports, "Listening for Messages from the Server" and
 * "Resumability and Redelivery"): opens the session's standalone SSE stream, or, with
 * `Last-Event-ID`, replays what the client missed on that one stream and re-attaches it.
 */
import { encode } from "@proto/jsonrpc";
import { HttpHeader, MediaType } from "../shared/headers";
import { authenticateRequest } from "./auth-step";
import { acceptsPriming, checkVersion, findSession, versionOf } from "./context";
import type { CoreContext } from "./context";
import { HttpServerError, HttpServerFault } from "./errors";
import { accepts, sendError } from "./http-util";
import type { HttpIn, HttpOut, OutHeaders } from "./io";
import type { Session } from "./session";
import { sseMessage } from "./sse";

const MAX_EVENT_ID_LENGTH = 512;

/** Handles one GET. */
export async function handleGet(ctx: CoreContext, input: HttpIn, out: HttpOut, cors: OutHeaders): Promise<void> {
  const { opts } = ctx;
  if (!accepts(input.header("accept"), MediaType.EventStream)) {
    sendError(out, 406, "Accept must list text/event-stream", cors);
    return;
  }
  const auth = await authenticateRequest(opts, ctx.metadataUrl, input, out, cors);
  if (!auth) return;
  const lastEventId = input.header(HttpHeader.LastEventId);
  if (opts.stateless || (lastEventId === undefined && !opts.standaloneSse)) {
    sendError(out, 405, "this server offers no standalone SSE stream; use POST", { ...cors, allow: opts.stateless ? "POST" : "POST, DELETE" });
    return;
  }
  if (!checkVersion(ctx, input, out, cors)) return;
  const session = findSession(ctx, input, out, cors, auth.principal);
  if (!session || session.id === undefined) return;
  const headers: OutHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", ...cors, [HttpHeader.SessionId]: session.id };
  if (lastEventId !== undefined) {
    await resume(ctx, session, lastEventId, out, headers);
    return;
  }
  const prime = opts.eventStore !== undefined && acceptsPriming(versionOf(input, session), session);
  session.listen(out.stream(200, headers), prime);
}

async function resume(ctx: CoreContext, session: Session, lastEventId: string, out: HttpOut, headers: OutHeaders): Promise<void> {
  const store = ctx.opts.eventStore;
  if (!store) {
    sendError(out, 400, "this server keeps no events (no eventStore), so streams cannot be resumed; open a new GET without Last-Event-ID", headers);
    return;
  }
  let replay;
  try {
    replay = lastEventId.length > MAX_EVENT_ID_LENGTH ? undefined : await store.replay(lastEventId);
  } catch (cause) {
    ctx.fault(new HttpServerError(HttpServerFault.EventStoreFailed, "event store replay failed", { cause }));
    sendError(out, 503, "events cannot be replayed right now; retry later", { ...headers, "retry-after": "5" });
    return;
  }
  if (!replay || !session.owns(replay.streamId)) {
    sendError(out, 400, "Last-Event-ID is unknown to this session or its events are no longer kept: resuming would lose events", headers);
    return;
  }
  const live = session.live(replay.streamId);
  const connection = out.stream(200, headers);
  if (live) {
    live.resume(connection, lastEventId);
    return;
  }
  // the stream is complete: everything it will ever carry is in the store
  for (const event of replay.events) await connection.write(sseMessage(encode(event.message), event.id)).catch(() => undefined);
  connection.end();
}
