/**
 * POST on the MCP endpoint (MCP 2025-11-25 transports, "Sending Messages to the Server"): checks
 * `Accept`, `Content-Type`, auth, the body limit, the frame, the session, the protocol version
 * and the scopes, then hands the frame to the session's sink with an exchange that answers on
 * this POST (JSON or SSE), or answers 202 when the frame holds no request.
 */
import { decode, deliverFrame, isRequest } from "@proto/jsonrpc";
import type { DecodeResult, Exchange, ExchangeInfo, JsonRpcId, JsonRpcMessage, JsonRpcRequest, Principal } from "@proto/jsonrpc";
import { allowsBatches } from "@proto/mcp-protocol";
import { HttpHeader, LifecycleMethod, MediaType } from "../shared/headers";
import { authenticateRequest, checkScopes } from "./auth-step";
import { acceptsPriming, ASSUMED_PROTOCOL_VERSION, checkVersion, findSession, openSession, versionOf } from "./context";
import type { CoreContext } from "./context";
import { HttpServerError, HttpServerFault } from "./errors";
import { PostExchange } from "./exchange";
import { accepts, isJsonContentType, sendError, sendFailure } from "./http-util";
import type { HttpIn, HttpOut, OutHeaders } from "./io";
import type { Session } from "./session";

const NEVER = new AbortController().signal;

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  // fast path for what every client sends; the full media-range parse handles the rest
  if (!accept.includes(";") && accept.includes(MediaType.Json) && accept.includes(MediaType.EventStream)) return true;
  return accepts(accept, MediaType.Json) && accepts(accept, MediaType.EventStream);
}

const CONSUMED = "the request body was already read by a framework or middleware and not passed on: call the handler as handler(req, res, body) (Fastify: request.body; Koa: ctx.request.body)";

/** Reads and decodes the body; answers 406/413/408/400 itself and returns undefined then. */
async function readFrame(ctx: CoreContext, input: HttpIn, out: HttpOut, headers: OutHeaders): Promise<DecodeResult & { ok: true } | undefined> {
  const read = await input.readBody(ctx.opts.maxMessageBytes);
  if (!read.ok) {
    if (read.reason === "too-large") sendError(out, 413, `the body exceeds maxMessageBytes (${ctx.opts.maxMessageBytes} bytes)`, { ...headers, connection: "close" });
    else if (read.reason === "timeout") sendError(out, 408, "the request body did not arrive in time", { ...headers, connection: "close" });
    else if (read.reason === "consumed") sendError(out, 400, CONSUMED, headers);
    return undefined;
  }
  const { maxMessageBytes, maxDepth, maxBatch } = ctx.opts;
  const decoded = decode(read.body, { maxMessageBytes, maxDepth, maxBatch });
  if (!decoded.ok) {
    sendFailure(out, 400, decoded.error, headers);
    return undefined;
  }
  return decoded;
}

/** Handles one POST. */
export async function handlePost(ctx: CoreContext, input: HttpIn, out: HttpOut, cors: OutHeaders): Promise<void> {
  const { opts } = ctx;
  if (!acceptsBoth(input.header("accept"))) {
    sendError(out, 406, "Accept must list both application/json and text/event-stream", cors);
    return;
  }
  if (!isJsonContentType(input.header("content-type"))) {
    sendError(out, 415, "Content-Type must be application/json", cors);
    return;
  }
  const auth = await authenticateRequest(opts, ctx.metadataUrl, input, out, cors);
  if (!auth) return;
  const decoded = await readFrame(ctx, input, out, cors);
  if (!decoded) return;
  const batch = Array.isArray(decoded.payload);
  const messages: readonly JsonRpcMessage[] = batch ? (decoded.payload as readonly JsonRpcMessage[]) : [decoded.payload as JsonRpcMessage];
  const init = messages.find((m): m is JsonRpcRequest => isRequest(m) && m.method === LifecycleMethod.Initialize);
  if (init && (batch || messages.length !== 1)) {
    sendError(out, 400, "initialize must be sent alone, not inside a batch", cors);
    return;
  }
  if (init && !opts.stateless && input.header(HttpHeader.SessionId) !== undefined) {
    sendError(out, 400, "initialize must be sent without Mcp-Session-Id: it starts a new session", cors);
    return;
  }
  if (!init && !checkVersion(ctx, input, out, cors)) return;
  const existing = init || opts.stateless ? undefined : findSession(ctx, input, out, cors, auth.principal);
  if (!init && !opts.stateless && !existing) return;
  if (batch && !allowsBatches(versionOf(input, existing))) {
    sendError(out, 400, "JSON-RPC batches are part of MCP 2025-03-26 only; send one message per POST", cors);
    return;
  }
  if (!checkScopes(opts, ctx.metadataUrl, messages, auth.principal, out, cors)) return;
  const session = existing ?? (await openSession(ctx, auth.principal, init !== undefined, out, cors));
  if (!session) return;
  deliver(ctx, { input, out, cors, decoded, batch, messages, init, session, principal: auth.principal });
}

interface Delivery {
  readonly input: HttpIn;
  readonly out: HttpOut;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly batch: boolean;
  readonly messages: readonly JsonRpcMessage[];
  readonly init: JsonRpcRequest | undefined;
  readonly session: Session;
  readonly principal: Principal | undefined;
}

function deliver(ctx: CoreContext, d: Delivery): void {
  const { session, out } = d;
  const sink = session.sink;
  if (!sink) return sendError(out, 500, "the session has no sink", d.cors);
  const expected: (JsonRpcId | null)[] = [];
  for (const message of d.messages) if (isRequest(message)) expected.push(message.id);
  for (const failure of d.decoded.invalid) expected.push(failure.id);
  const headers: OutHeaders = session.id === undefined ? d.cors : { ...d.cors, [HttpHeader.SessionId]: session.id };
  const info = exchangeInfo(session, d.principal, d.input);
  const unsolicited = session.id === undefined ? undefined : session.transport.send;
  if (expected.length === 0) {
    const exchange: Exchange = {
      reply: (payload) => {
        if (unsolicited) return unsolicited(payload);
        const messages = Array.isArray(payload) ? payload : [payload];
        if (!messages.some(isRequest)) return Promise.resolve(); // stateless: nowhere to go, dropped like on any lossy stream
        return Promise.reject(new HttpServerError(HttpServerFault.StreamGone, "a stateless notification POST has no stream to carry a request to the client"));
      },
      signal: NEVER,
      info,
    };
    deliverFrame(d.decoded, sink, exchange);
    out.send(202, headers);
    if (session.id === undefined) void session.close();
    return;
  }
  let initFailed = false;
  const store = session.id === undefined ? undefined : ctx.opts.eventStore;
  const version = d.init ? requestedVersion(d.init) : versionOf(d.input, session);
  let untrack: () => void = () => undefined;
  const post = new PostExchange({
    info,
    out,
    mode: ctx.opts.responseMode,
    batch: d.batch,
    expected,
    headers,
    openStream: (hooks) => session.openStream(hooks),
    prime: store !== undefined && acceptsPriming(version, session),
    unsolicited,
    onResponse: d.init ? (response) => {
      if (response.id !== d.init?.id) return;
      const negotiated = "result" in response ? (response.result as { protocolVersion?: unknown } | null)?.protocolVersion : undefined;
      if (typeof negotiated === "string") session.protocolVersion = negotiated;
      else initFailed = true;
    } : undefined,
    onEnd: () => {
      untrack();
      if (session.id === undefined || initFailed) void session.close();
    },
    fault: ctx.fault,
  });
  untrack = session.track(post);
  deliverFrame(d.decoded, sink, post);
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
