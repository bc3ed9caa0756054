/**
 * Handing a checked POST frame to its session's sink (MCP 2025-11-25 transports, "Sending
 * Messages to the Server") with a `PostExchange` that answers on this POST. What the exchange
 * needs from the session is one `SessionPost` object per POST, not a closure per hook; an SSE
 * answer is known as soon as the exchange exists, so it is returned at once, without a promise.
 */
import { deliverFrame, isRequest } from "@proto/jsonrpc";
import type { DecodeResult, ExchangeInfo, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse, Principal, TransportSink } from "@proto/jsonrpc";
import { HttpHeader } from "../shared/headers";
import { acceptsPriming, ASSUMED_PROTOCOL_VERSION, versionOf } from "./context";
import type { CoreContext } from "./context";
import type { HttpServerError } from "./errors";
import { PostExchange } from "./exchange";
import type { PostExchangeContext, ResponseMode } from "./exchange";
import { errorAnswer } from "./http-util";
import type { HttpAnswer, HttpIn, OutHeaders } from "./io";
import type { Session } from "./session";
import { routeResponses } from "./shared";
import { journalRequest } from "./shared-journal";
import type { SseStream, StreamHooks } from "./stream";

/** A decoded POST frame that passed every check. */
export interface Frame {
  readonly input: HttpIn;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly batch: boolean;
  readonly messages: readonly JsonRpcMessage[];
  readonly init: JsonRpcRequest | undefined;
  readonly principal: Principal | undefined;
}

/** The `PostExchangeContext` of a session's POST: the session's side of the exchange. */
class SessionPost implements PostExchangeContext {
  readonly info: ExchangeInfo;
  readonly input: HttpIn;
  readonly mode: ResponseMode;
  readonly batch: boolean;
  readonly answered: boolean;
  readonly prime: boolean;
  readonly unsolicited: PostExchangeContext["unsolicited"];
  /** The answer, once the exchange gave it and nobody waited for it yet. */
  settled: HttpAnswer | undefined;
  private resolve: ((answer: HttpAnswer) => void) | undefined;
  private initFailed = false;
  private unjournal: (() => void) | undefined;
  exchange: PostExchange | undefined;

  constructor(
    private readonly ctx: CoreContext,
    private readonly frame: Frame,
    private readonly session: Session,
    readonly headers: OutHeaders,
  ) {
    this.info = exchangeInfo(session, frame.principal, frame.input);
    this.input = frame.input;
    this.mode = ctx.opts.responseMode;
    this.batch = frame.batch;
    this.answered = frame.decoded.invalid.length > 0 || frame.messages.some(isRequest);
    const store = session.id === undefined ? undefined : ctx.opts.eventStore;
    this.prime = store !== undefined && acceptsPriming(frame.init ? requestedVersion(frame.init) : versionOf(frame.input, session), session);
    this.unsolicited = session.id === undefined ? undefined : session.transport.send;
  }

  answer(answer: HttpAnswer): void {
    if (this.resolve === undefined) this.settled = answer;
    else this.resolve(answer);
  }

  /** The answer now, or a promise of it (JSON and 202 answers come when the frame is finished). */
  result(): HttpAnswer | Promise<HttpAnswer> {
    const settled = this.settled;
    if (settled !== undefined) {
      this.settled = undefined;
      return settled;
    }
    return new Promise<HttpAnswer>((resolve) => (this.resolve = resolve));
  }

  openStream(hooks: StreamHooks): SseStream {
    const stream = this.session.openStream(hooks);
    const { ctx, session, frame } = this;
    const shared = ctx.shared;
    const journal = shared !== undefined && ctx.opts.eventStore?.end !== undefined && session.id !== undefined && !frame.init ? shared.journal : undefined;
    if (shared !== undefined && journal !== undefined) this.unjournal = journalRequest(ctx, shared, journal, session, frame.messages, frame.principal, stream.id);
    return stream;
  }

  /** Sees every response of the frame: `initialize`'s tells the negotiated version. */
  onResponse(response: JsonRpcResponse): void {
    const init = this.frame.init;
    if (init === undefined || response.id !== init.id) return;
    const negotiated = "result" in response ? (response.result as { protocolVersion?: unknown } | null)?.protocolVersion : undefined;
    if (typeof negotiated === "string") this.session.protocolVersion = negotiated;
    else this.initFailed = true;
  }

  onEnd(): void {
    const { session } = this;
    if (this.exchange !== undefined) session.untrack(this.exchange);
    this.unjournal?.();
    if (session.id === undefined || this.initFailed) void session.close();
  }

  fault(error: HttpServerError): void {
    this.ctx.fault(error);
  }
}

/** Hands the frame to the session's sink; the exchange settles the answer (JSON, 202 or an SSE stream). */
export function deliver(ctx: CoreContext, frame: Frame, session: Session): HttpAnswer | Promise<HttpAnswer> {
  const sink: TransportSink | undefined = session.sink;
  if (!sink) return errorAnswer(500, "the session has no sink", frame.cors);
  const headers = answerHeaders(session, frame.cors);
  if (ctx.shared !== undefined && session.id !== undefined && !frame.init) {
    const messages = routeResponses(ctx.shared, session, frame.messages, ctx.fault);
    if (messages.length === 0 && frame.decoded.invalid.length === 0) return { status: 202, headers };
    if (messages !== frame.messages) frame = { ...frame, messages, decoded: { ...frame.decoded, payload: frame.batch ? messages : (messages[0] as JsonRpcMessage) } };
  }
  const post = new SessionPost(ctx, frame, session, headers);
  const exchange = new PostExchange(post);
  post.exchange = exchange;
  session.track(exchange);
  deliverFrame(frame.decoded, sink, exchange);
  return post.result();
}

/** The headers every answer of this POST carries: the session's own object when there are no CORS headers (never mutated). */
function answerHeaders(session: Session, cors: OutHeaders): OutHeaders {
  if (session.id === undefined) return cors;
  for (const _name in cors) return { ...cors, [HttpHeader.SessionId]: session.id };
  return session.headers;
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
