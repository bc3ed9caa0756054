/**
 * Serving a modern POST (MCP 2026-07-28 basic/transports/streamable-http): no session is minted
 * or looked up (`Mcp-Session-Id` and `Last-Event-ID` are ignored); the request goes to a
 * throwaway transport connected for this POST alone, answered as JSON or a request-scoped SSE
 * stream, with the HTTP status of its answer (`modernStatus`). The POST's stream closing is the
 * cancellation. Notifications get an empty 202. Scopes are checked as for every POST.
 *
 * The throwaway transport is not a session (`createSession`): it has no id, registry entry,
 * queue, standalone stream or event store, and nothing is random or allocated for them; it
 * carries the one exchange and at most one SSE stream, and closes when the exchange ends.
 */
import { deliverFrame } from "@proto/jsonrpc";
import type { DecodeResult, ExchangeInfo, JsonRpcMessage, Principal, SingleRequestTransport, TransportSink } from "@proto/jsonrpc";
import { checkScopes } from "./auth-step";
import type { CoreContext } from "./context";
import { HttpServerError, HttpFaultCode } from "./errors";
import { PostExchange } from "./exchange";
import type { PostExchangeContext, ResponseMode } from "./exchange";
import { errorAnswer } from "./http-util";
import type { HttpAnswer, HttpIn, OutHeaders } from "./io";
import { modernStatus } from "./modern-ladder";
import type { PostVerdict } from "./modern-ladder";
import { createSseStream } from "./stream";
import type { SseStream, StreamHooks, StreamSettings } from "./stream";

/** What a modern POST needs from the POST handler. */
export interface ModernPost {
  readonly input: HttpIn;
  readonly cors: OutHeaders;
  readonly decoded: DecodeResult & { ok: true };
  readonly messages: readonly JsonRpcMessage[];
  readonly principal: Principal | undefined;
}

/** The stream settings of modern POSTs: the handler's, without the event store (a modern stream is never resumed). */
const storeless = new WeakMap<StreamSettings, StreamSettings>();

function settingsOf(ctx: CoreContext): StreamSettings {
  let settings = storeless.get(ctx.settings);
  if (settings === undefined) storeless.set(ctx.settings, (settings = { ...ctx.settings, store: undefined }));
  return settings;
}

/** The connect context of every anonymous modern POST (frozen: nothing per POST). */
const ANONYMOUS = Object.freeze({ sessionId: undefined, stateless: true, initialize: false, principal: undefined });

/**
 * The transport of one modern POST: the sink gets its one frame; `send` has nowhere to go. A
 * `SingleRequestTransport`: the server answers its request without building a `Peer`. It is
 * also the context of the POST's exchange (one object per POST, no closures).
 */
class PostTransport implements SingleRequestTransport, PostExchangeContext {
  readonly singleRequest = true;
  sink: TransportSink | undefined;
  exchange: PostExchange | undefined;
  stream: SseStream | undefined;
  private closed = false;
  // the exchange's context
  readonly info: ExchangeInfo;
  readonly input: HttpIn;
  readonly mode: ResponseMode;
  readonly batch = false;
  readonly answered = true;
  readonly headers: OutHeaders;
  readonly prime = false;
  readonly unsolicited = undefined;
  readonly onResponse = undefined;
  readonly fault: (error: HttpServerError) => void;
  readonly statusOf = modernStatus;
  readonly settled: Promise<HttpAnswer>;
  private settle!: (answer: HttpAnswer) => void;

  constructor(
    ctx: CoreContext,
    post: ModernPost,
    private readonly settings: StreamSettings,
  ) {
    const headers = post.input.headers();
    this.info = post.principal ? { transport: "http", principal: post.principal, headers } : { transport: "http", headers };
    this.input = post.input;
    // an error answer keeps its status (404, 400) only as JSON; SSE starts when notifications come first
    this.mode = ctx.opts.responseMode === "json" ? "json" : "auto";
    this.headers = { ...post.cors, "x-accel-buffering": "no" };
    this.fault = ctx.fault;
    this.settled = new Promise<HttpAnswer>((resolve) => (this.settle = resolve));
  }

  start(sink: TransportSink): Promise<void> {
    if (this.sink) return Promise.reject(new TypeError("start() called twice: a transport has exactly one sink"));
    this.sink = sink;
    return Promise.resolve();
  }

  send(): Promise<void> {
    return Promise.reject(new HttpServerError(HttpFaultCode.StreamGone, "a 2026-07-28 request has no standalone stream: server-initiated messages must relate to a request"));
  }

  close(reason?: Error): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    // after a normal end nothing is left to abort, and no error is built
    this.exchange?.abort(reason ?? new HttpServerError(HttpFaultCode.SessionClosed, "the transport of this request was closed"));
    this.stream?.close();
    this.sink?.closed(reason);
    return Promise.resolve();
  }

  answer(answer: HttpAnswer): void {
    this.settle(answer);
  }

  openStream(hooks: StreamHooks): SseStream {
    const stream = createSseStream("modern", this.settings, hooks);
    this.stream = stream;
    return stream;
  }

  /** The exchange ended: answered in full (its stream done) or aborted (its stream closed). */
  onEnd(): void {
    this.exchange = undefined;
    this.stream = undefined;
    void this.close();
  }
}

/** Connects the POST's transport with the `connect` option; the 500 that answers a failure. */
async function connect(ctx: CoreContext, transport: PostTransport, principal: Principal | undefined, cors: OutHeaders): Promise<TransportSink | HttpAnswer> {
  try {
    await ctx.opts.connect(transport, principal === undefined ? ANONYMOUS : { sessionId: undefined, stateless: true, initialize: false, principal });
    if (!transport.sink) throw new TypeError("connect(transport) returned without calling transport.start(sink)");
    return transport.sink;
  } catch (cause) {
    void transport.close();
    ctx.fault(new HttpServerError(HttpFaultCode.ConnectFailed, "the connect option failed to connect a new transport", { cause }));
    return errorAnswer(500, "the server could not start a session", cors);
  }
}

/** Serves a POST the ladder classified as modern or refused, and returns its answer. */
export async function serveModernPost(ctx: CoreContext, verdict: Exclude<PostVerdict, { kind: "legacy" }>, post: ModernPost): Promise<HttpAnswer> {
  const { cors } = post;
  if (verdict.kind === "refused") return { status: verdict.status, headers: { "content-type": "application/json", ...cors }, body: JSON.stringify(verdict.body) };
  if (verdict.kind === "modern-notification") return { status: 202, headers: cors };
  const forbidden = checkScopes(ctx.opts, ctx.metadataUrl, post.messages, post.principal, cors);
  if (forbidden) return forbidden;
  const transport = new PostTransport(ctx, post, settingsOf(ctx));
  const sink = await connect(ctx, transport, post.principal, cors);
  if (!("payload" in sink)) return sink;
  const exchange = new PostExchange(transport);
  transport.exchange = exchange;
  deliverFrame(post.decoded, sink, exchange);
  return transport.settled;
}
