/**
 * POST on the MCP endpoint (MCP 2025-11-25 transports, "Sending Messages to the Server"): checks
 * `Accept`, `Content-Type`, auth, the body limit, the frame, the session, the protocol version
 * and the scopes, then hands the frame to the session's sink with an exchange that answers on
 * this POST (JSON or SSE), or answers 202 when the frame holds no request.
 */
import { decode, isRequest } from "@proto/jsonrpc";
import type { DecodeResult, JsonRpcFailure, JsonRpcMessage, JsonRpcRequest, Principal } from "@proto/jsonrpc";
import { allowsBatches, createBatchRefusedError } from "@proto/mcp-protocol";
import { HttpHeader, LifecycleMethod, MediaType } from "../shared/headers";
import { authenticateRequest, checkScopes } from "./auth-step";
import type { AuthOutcome } from "./auth-step";
import { checkSessionVersion, checkVersion, findSession, openSession, versionOf } from "./context";
import type { CoreContext } from "./context";
import { accepts, errorAnswer, failureAnswer, isAnswer, isJsonContentType } from "./http-util";
import type { BodyRead, FullAnswer, HttpAnswer, HttpIn, OutHeaders } from "./io";
import { classifyPost } from "./modern-ladder";
import { serveModernPost } from "./modern-post";
import { deliver } from "./post-deliver";
import type { Frame } from "./post-deliver";
import type { Session } from "./session";

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  // fast path for what every client sends; the full media-range parse handles the rest
  if (!accept.includes(";") && accept.includes(MediaType.Json) && accept.includes(MediaType.EventStream)) return true;
  return accepts(accept, MediaType.Json) && accepts(accept, MediaType.EventStream);
}

const CONSUMED = "the request body was already read by a framework or middleware and not passed on: call the handler as handler(req, res, body) (Fastify: request.body; Koa: ctx.request.body)";

/** Decodes the body read; a refusal (413, 408, 400) is returned as the answer. */
function frameOf(ctx: CoreContext, read: BodyRead, headers: OutHeaders): (DecodeResult & { ok: true }) | FullAnswer {
  if (!read.ok) {
    if (read.reason === "too-large") return errorAnswer(413, `the body exceeds maxMessageBytes (${ctx.opts.maxMessageBytes} bytes)`, { ...headers, connection: "close" });
    if (read.reason === "timeout") return errorAnswer(408, "the request body did not arrive in time", { ...headers, connection: "close" });
    if (read.reason === "consumed") return errorAnswer(400, CONSUMED, headers);
    // the client went away mid-body: nobody reads this answer, but the handler still settles
    return errorAnswer(400, "the request body could not be read", { ...headers, connection: "close" });
  }
  const { maxMessageBytes, maxDepth, maxBatch } = ctx.opts;
  const decoded = decode(read.body, { maxMessageBytes, maxDepth, maxBatch });
  if (!decoded.ok) return failureAnswer(400, decoded.error, headers);
  return decoded;
}

/**
 * Handles one POST and returns its answer (for a frame that reaches the sink: once the exchange
 * knows it). Each step that can wait (auth hook, body read, shared session lookup, connect)
 * continues in a `then` only when it did wait: a POST whose body was read before and whose
 * session is local is answered without a promise.
 */
export function handlePost(ctx: CoreContext, input: HttpIn, cors: OutHeaders): HttpAnswer | Promise<HttpAnswer> {
  if (!acceptsBoth(input.header("accept"))) return errorAnswer(406, "Accept must list both application/json and text/event-stream", cors);
  if (!isJsonContentType(input.header("content-type"))) return errorAnswer(415, "Content-Type must be application/json", cors);
  const encoding = input.header("content-encoding");
  if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
    // a compressed body would pass the byte cap compressed and decode past it: refused before reading
    return errorAnswer(415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 64))} is not accepted; send the body uncompressed`, { ...cors, "accept-encoding": "identity" });
  }
  const auth = authenticateRequest(ctx.opts, ctx.metadataUrl, input, cors);
  if (auth instanceof Promise) return auth.then((outcome) => authenticated(ctx, input, cors, outcome));
  return authenticated(ctx, input, cors, auth);
}

function authenticated(ctx: CoreContext, input: HttpIn, cors: OutHeaders, auth: AuthOutcome): HttpAnswer | Promise<HttpAnswer> {
  if (isAnswer(auth)) return auth;
  const read = input.readBody(ctx.opts.maxMessageBytes);
  if (read instanceof Promise) return read.then((body) => received(ctx, input, cors, auth.principal, body));
  return received(ctx, input, cors, auth.principal, read);
}

function received(ctx: CoreContext, input: HttpIn, cors: OutHeaders, principal: Principal | undefined, read: BodyRead): HttpAnswer | Promise<HttpAnswer> {
  const { opts } = ctx;
  const decoded = frameOf(ctx, read, cors);
  if (isAnswer(decoded)) return decoded;
  const batch = Array.isArray(decoded.payload);
  const messages: readonly JsonRpcMessage[] = batch ? (decoded.payload as readonly JsonRpcMessage[]) : [decoded.payload as JsonRpcMessage];
  const verdict = classifyPost(messages, batch, input);
  if (verdict.kind !== "legacy") return serveModernPost(ctx, verdict, { input, cors, decoded, messages, principal });
  const init = messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === LifecycleMethod.Initialize);
  if (init && (batch || messages.length !== 1)) return errorAnswer(400, "initialize must be sent alone, not inside a batch", cors);
  if (init && !opts.stateless && input.header(HttpHeader.SessionId) !== undefined) {
    return errorAnswer(400, "initialize must be sent without Mcp-Session-Id: it starts a new session", cors);
  }
  if (!init) {
    const refused = checkVersion(ctx, input, cors);
    if (refused) return refused;
  }
  const frame: Frame = { input, cors, decoded, batch, messages, init, principal };
  const existing = init || opts.stateless ? undefined : findSession(ctx, input, cors, principal);
  if (existing instanceof Promise) return existing.then((found) => withSession(ctx, frame, found));
  return withSession(ctx, frame, existing);
}

function withSession(ctx: CoreContext, frame: Frame, existing: Session | FullAnswer | undefined): HttpAnswer | Promise<HttpAnswer> {
  if (isAnswer(existing)) return existing;
  const { input, cors, messages } = frame;
  const mismatch = existing === undefined ? undefined : checkSessionVersion(input, existing, cors);
  if (mismatch) return mismatch;
  if (frame.batch) {
    const version = versionOf(input, existing);
    if (!allowsBatches(version)) return refusedBatch(messages, version, cors);
  }
  const forbidden = checkScopes(ctx.opts, ctx.metadataUrl, messages, frame.principal, cors);
  if (forbidden) return forbidden;
  if (existing !== undefined) return deliver(ctx, frame, existing);
  return openSession(ctx, frame.principal, frame.init !== undefined, cors, input.remoteAddress).then((session) => (isAnswer(session) ? session : deliver(ctx, frame, session)));
}

/**
 * A batch under a version without batches: 400 with the answer a session gives over stdio, one
 * -32600 (`createBatchRefusedError`) per request of the batch with its id; a batch without
 * requests gets the error once, with id null.
 */
function refusedBatch(messages: readonly JsonRpcMessage[], version: string, cors: OutHeaders): FullAnswer {
  const error = createBatchRefusedError(version).toObject();
  const answers: JsonRpcFailure[] = [];
  for (const message of messages) if (isRequest(message)) answers.push({ jsonrpc: "2.0", id: message.id, error });
  const body = answers.length === 0 ? ({ jsonrpc: "2.0", id: null, error } satisfies JsonRpcFailure) : answers;
  return { status: 400, headers: { "content-type": "application/json", ...cors }, body: JSON.stringify(body) };
}

