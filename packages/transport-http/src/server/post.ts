/**
 * POST on the MCP endpoint (MCP 2025-11-25 transports, "Sending Messages to the Server"): checks
 * `Accept`, `Content-Type`, auth, the body limit, the frame, the session, the protocol version
 * and the scopes, then hands the frame to the session's sink with an exchange that answers on
 * this POST (JSON or SSE), or answers 202 when the frame holds no request.
 */
import { decode, deliverFrame, isRequest } from "@proto/jsonrpc";
import type { DecodeResult, ExchangeInfo, JsonRpcFailure, JsonRpcMessage, JsonRpcRequest, Principal } from "@proto/jsonrpc";
import { allowsBatches, createBatchRefusedError } from "@proto/mcp-protocol";
import { HttpHeader, LifecycleMethod, MediaType } from "../shared/headers";
import { authenticateRequest, checkScopes } from "./auth-step";
import { acceptsPriming, ASSUMED_PROTOCOL_VERSION, checkSessionVersion, checkVersion, findSession, openSession, versionOf } from "./context";
import type { CoreContext } from "./context";
import { PostExchange } from "./exchange";
import { accepts, errorAnswer, failureAnswer, isAnswer, isJsonContentType } from "./http-util";
import type { FullAnswer, HttpAnswer, HttpIn, OutHeaders } from "./io";
import { classifyPost } from "./modern-ladder";
import { serveModernPost } from "./modern-post";
import type { Session } from "./session";
import { routeResponses } from "./shared";
import { journalRequest } from "./shared-journal";

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  // fast path for what every client sends; the full media-range parse handles the rest
  if (!accept.includes(";") && accept.includes(MediaType.Json) && accept.includes(MediaType.EventStream)) return true;
  return accepts(accept, MediaType.Json) && accepts(accept, MediaType.EventStream);
}

const CONSUMED = "the request body was already read by a framework or middleware and not passed on: call the handler as handler(req, res, body) (Fastify: request.body; Koa: ctx.request.body)";

/** Reads and decodes the body; a refusal (413, 408, 400) is returned as the answer. */
async function readFrame(ctx: CoreContext, input: HttpIn, headers: OutHeaders): Promise<(DecodeResult & { ok: true }) | FullAnswer> {
  const read = await input.readBody(ctx.opts.maxMessageBytes);
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

/** Handles one POST and returns its answer (for a frame that reaches the sink: once the exchange knows it). */
export async function handlePost(ctx: CoreContext, input: HttpIn, cors: OutHeaders): Promise<HttpAnswer> {
  const { opts } = ctx;
  if (!acceptsBoth(input.header("accept"))) return errorAnswer(406, "Accept must list both application/json and text/event-stream", cors);
  if (!isJsonContentType(input.header("content-type"))) return errorAnswer(415, "Content-Type must be application/json", cors);
  const encoding = input.header("content-encoding");
  if (encoding !== undefined && encoding.trim().toLowerCase() !== "identity") {
    // a compressed body would pass the byte cap compressed and decode past it: refused before reading
    return errorAnswer(415, `Content-Encoding ${JSON.stringify(encoding.slice(0, 64))} is not accepted; send the body uncompressed`, { ...cors, "accept-encoding": "identity" });
  }
  const auth = await authenticateRequest(opts, ctx.metadataUrl, input, cors);
  if (isAnswer(auth)) return auth;
  const decoded = await readFrame(ctx, input, cors);
  if (isAnswer(decoded)) return decoded;
  const batch = Array.isArray(decoded.payload);
  const messages: readonly JsonRpcMessage[] = batch ? (decoded.payload as readonly JsonRpcMessage[]) : [decoded.payload as JsonRpcMessage];
  const verdict = classifyPost(messages, batch, input);
  if (verdict.kind !== "legacy") return serveModernPost(ctx, verdict, { input, cors, decoded, messages, principal: auth.principal });
  const init = messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === LifecycleMethod.Initialize);
  if (init && (batch || messages.length !== 1)) return errorAnswer(400, "initialize must be sent alone, not inside a batch", cors);
  if (init && !opts.stateless && input.header(HttpHeader.SessionId) !== undefined) {
    return errorAnswer(400, "initialize must be sent without Mcp-Session-Id: it starts a new session", cors);
  }
  if (!init) {
    const refused = checkVersion(ctx, input, cors);
    if (refused) return refused;
  }
  const existing = init || opts.stateless ? undefined : await findSession(ctx, input, cors, auth.principal);
  if (isAnswer(existing)) return existing;
  const mismatch = existing === undefined ? undefined : checkSessionVersion(input, existing, cors);
  if (mismatch) return mismatch;
  if (batch) {
    const version = versionOf(input, existing);
    if (!allowsBatches(version)) return refusedBatch(messages, version, cors);
  }
  const forbidden = checkScopes(opts, ctx.metadataUrl, messages, auth.principal, cors);
  if (forbidden) return forbidden;
  const session = existing ?? (await openSession(ctx, auth.principal, init !== undefined, cors, input.remoteAddress));
  if (isAnswer(session)) return session;
  return deliver(ctx, { input, cors, decoded, batch, messages, init, session, principal: auth.principal });
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

interface Delivery {
  readonly input: HttpIn;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly batch: boolean;
  readonly messages: readonly JsonRpcMessage[];
  readonly init: JsonRpcRequest | undefined;
  readonly session: Session;
  readonly principal: Principal | undefined;
}

/** Hands the frame to the session's sink; the exchange settles the answer (JSON, 202 or an SSE stream). */
function deliver(ctx: CoreContext, d: Delivery): Promise<HttpAnswer> | HttpAnswer {
  const { session } = d;
  const sink = session.sink;
  if (!sink) return errorAnswer(500, "the session has no sink", d.cors);
  const headers: OutHeaders = session.id === undefined ? d.cors : { ...d.cors, [HttpHeader.SessionId]: session.id };
  if (ctx.shared !== undefined && session.id !== undefined && !d.init) {
    const messages = routeResponses(ctx.shared, session, d.messages, ctx.fault);
    if (messages.length === 0 && d.decoded.invalid.length === 0) return { status: 202, headers };
    if (messages !== d.messages) d = { ...d, messages, decoded: { ...d.decoded, payload: d.batch ? messages : (messages[0] as JsonRpcMessage) } };
  }
  let initFailed = false;
  const store = session.id === undefined ? undefined : ctx.opts.eventStore;
  const version = d.init ? requestedVersion(d.init) : versionOf(d.input, session);
  let untrack: () => void = () => undefined;
  let unjournal: (() => void) | undefined;
  const shared = ctx.shared;
  const journal = shared !== undefined && store?.end !== undefined && !d.init ? shared.journal : undefined;
  let answer!: (answer: HttpAnswer) => void;
  const answered = new Promise<HttpAnswer>((resolve) => (answer = resolve));
  const post = new PostExchange({
    info: exchangeInfo(session, d.principal, d.input),
    input: d.input,
    answer,
    mode: ctx.opts.responseMode,
    batch: d.batch,
    answered: d.decoded.invalid.length > 0 || d.messages.some(isRequest),
    headers,
    openStream: (hooks) => {
      const stream = session.openStream(hooks);
      if (shared !== undefined && journal !== undefined) unjournal = journalRequest(ctx, shared, journal, session, d.messages, d.principal, stream.id);
      return stream;
    },
    prime: store !== undefined && acceptsPriming(version, session),
    unsolicited: session.id === undefined ? undefined : session.transport.send,
    onResponse: d.init ? (response) => {
      if (response.id !== d.init?.id) return;
      const negotiated = "result" in response ? (response.result as { protocolVersion?: unknown } | null)?.protocolVersion : undefined;
      if (typeof negotiated === "string") session.protocolVersion = negotiated;
      else initFailed = true;
    } : undefined,
    onEnd: () => {
      untrack();
      unjournal?.();
      if (session.id === undefined || initFailed) void session.close();
    },
    fault: ctx.fault,
  });
  untrack = session.track(post);
  deliverFrame(d.decoded, sink, post);
  return answered;
}

/** The exchange info of a POST (plain data; the Node adapter hands over its header object without a copy). */
function exchangeInfo(session: Session, principal: Principal | undefined, input: HttpIn): ExchangeInfo {
  const headers = input.headers();
  if (session.id === undefined) return principal ? { transport: "http", stateless: true, principal, headers } : { transport: "http", stateless: true, headers };
  return principal ? { transport: "http", sessionId: session.id, principal, headers } : { transport: "http", sessionId: session.id, headers };
}

function requestedVersion(init: JsonRpcRequest): string {
  const params = init.params as { protocolVersion?: unknown } | undefined;
  return typeof params?.protocolVersion === "string" ? params.protocolVersion : ASSUMED_PROTOCOL_VERSION;
}
