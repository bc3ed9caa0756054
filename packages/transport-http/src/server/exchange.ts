/**
 * The `Exchange` of one POST frame (MCP 2025-11-25 transports, "Sending Messages to the Server"):
 * replies are written into that POST's response, as one JSON body or as an SSE stream, and the
 * response ends when the sink (the `Peer`) finishes the frame: every answer written or dropped.
 * The exchange never counts ids; a reply that cannot be encoded rejects and counts for nothing,
 * so the peer's -32603 fallback answers on this same POST.
 *
 * In `auto` mode the answer stays JSON unless the server sends a notification or request related
 * to the call before the last response; then it becomes SSE and what was held back goes first.
 * A class, not closures: one allocation per POST on the hot path.
 */
import { encode, isRequest, isResponse } from "@proto/jsonrpc";
import type { Exchange, ExchangeInfo, JsonRpcMessage, JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import { errorAnswer } from "./http-util";
import type { AbortWatcher, ConnectionWriter, HttpAnswer, HttpIn, OutHeaders, StreamAnswer } from "./io";
import type { StreamHooks, SseStream } from "./stream";

/** How a POST answers requests: `auto` (JSON unless related messages come first), `json` only, or `sse` always. */
export type ResponseMode = "auto" | "json" | "sse";

/** What a `PostExchange` needs. */
export interface PostExchangeContext {
  readonly info: ExchangeInfo;
  /** The POST (its client going away aborts the exchange). */
  readonly input: HttpIn;
  /** Settles the POST's answer; called exactly once by the exchange. */
  readonly answer: (answer: HttpAnswer) => void;
  readonly mode: ResponseMode;
  /** The frame was a JSON array: answer with an array in JSON mode. */
  readonly batch: boolean;
  /** The frame holds a request (or an invalid element, which is answered): `sse` mode opens its stream at once. */
  readonly answered: boolean;
  /** Headers every answer carries (session id, CORS). */
  readonly headers: OutHeaders;
  /** Opens the logical stream this POST answers on. */
  openStream(hooks: StreamHooks): SseStream;
  /** Send the priming event when the stream opens (an event store is configured and the client speaks 2025-11-25+). */
  readonly prime: boolean;
  /** Where related notifications and requests go when they cannot travel on this POST (JSON-only mode). */
  readonly unsolicited: ((payload: JsonRpcPayload) => Promise<void>) | undefined;
  /** Sees every response that passes (the handler reads the negotiated version from `initialize`). */
  readonly onResponse: ((response: JsonRpcResponse) => void) | undefined;
  /** Called once when the exchange is over: answered in full, or aborted. */
  readonly onEnd: (() => void) | undefined;
  /** Reports faults. */
  fault(error: HttpServerError): void;
  /** The status of a single JSON answer (modern requests: 400/404 for some errors). Default 200. */
  readonly statusOf?: (message: JsonRpcMessage) => number;
}

/** The headers of an SSE answer: the media type, no caching, then `extra` (session id, CORS), in that order. */
function sseHeaders(extra: OutHeaders): OutHeaders {
  const headers: OutHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" };
  for (const name in extra) headers[name] = extra[name] as string;
  return headers;
}

/** The answer of a POST whose stream waits for its connection. */
class SseAnswer implements StreamAnswer {
  readonly status = 200;
  constructor(
    readonly headers: OutHeaders,
    private readonly stream: SseStream,
  ) {}

  open(connection: ConnectionWriter): void {
    this.stream.arrive(connection);
  }
}

function gone(message: string): HttpServerError {
  return new HttpServerError(HttpFaultCode.StreamGone, message);
}

/** The exchange of one POST frame; it is the `Exchange` handed to the sink, and it watches its client and its stream itself. */
export class PostExchange implements Exchange, AbortWatcher, StreamHooks {
  readonly info: ExchangeInfo;
  private state: "pending" | "sse" | "done" = "pending";
  /** Responses held for the JSON answer, and their encodings (checked when replied). */
  private readonly held: JsonRpcMessage[] = [];
  private readonly texts: string[] = [];
  // created on first read: an AbortController costs more than the rest of a small exchange
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;
  private stream: SseStream | undefined;
  private answered = false;

  constructor(private readonly ctx: PostExchangeContext) {
    this.info = ctx.info;
    ctx.input.onAbort(this);
    if (ctx.mode === "sse" && ctx.answered) this.startStream();
  }

  /** The POST's client went away (`AbortWatcher`): an exchange still pending is aborted. */
  clientGone(): void {
    if (this.state === "pending") this.abort(gone("the client disconnected before the response"));
  }

  /** Its stream's connection went away before any event id reached the client (`StreamHooks`). */
  lost(): void {
    this.abort(gone("the client disconnected before the stream could be resumed"));
  }

  /** Its stream ended (`StreamHooks`). */
  done(): void {
    this.end();
  }

  /** A fault of its stream (`StreamHooks`). */
  fault(error: HttpServerError): void {
    this.ctx.fault(error);
  }

  /** Aborted when the POST's client leaves (and the stream cannot be resumed), or the session closes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** True once aborted, without creating the signal. */
  get aborted(): boolean {
    return this.abortReason !== undefined;
  }

  /** Sends a payload on this POST's answer. Rejects (and counts for nothing) when it cannot be encoded or the POST is over. */
  reply(payload: JsonRpcPayload): Promise<void> {
    if (this.state === "done") return Promise.reject(gone("this POST was already answered or its client went away; send unrelated messages with transport.send"));
    const messages: readonly JsonRpcMessage[] = Array.isArray(payload) ? payload : [payload as JsonRpcMessage];
    if (this.state === "sse" && this.stream) return this.writeAll(this.stream, messages);
    const related = messages.filter((message) => !isResponse(message));
    if (related.length > 0 && this.ctx.mode !== "json") {
      const held = this.held.splice(0);
      this.texts.length = 0;
      return this.writeAll(this.startStream(), held.concat(messages));
    }
    const responses = related.length === 0 ? messages : messages.filter(isResponse);
    const texts: string[] = [];
    try {
      for (const message of responses) texts.push(encode(message));
    } catch (error) {
      return Promise.reject(error);
    }
    for (let i = 0; i < responses.length; i++) {
      this.take(responses[i] as JsonRpcMessage);
      this.held.push(responses[i] as JsonRpcMessage);
      this.texts.push(texts[i] as string);
    }
    return related.length > 0 ? this.forward(related) : Promise.resolve();
  }

  /** The frame owes nothing more (told by the peer): the answer ends (JSON body, end of stream, or 202). */
  finish(): void {
    if (this.state === "done") return;
    if (this.state === "sse" && this.stream) this.stream.finish();
    else if (this.held.length > 0) this.sendJson();
    else {
      this.settle({ status: 202, headers: this.ctx.headers });
      this.end();
    }
  }

  /** Aborts the exchange (session closed, client gone): pending replies reject, the response ends. */
  abort(reason: Error): void {
    if (this.state === "done") return;
    const stream = this.stream;
    this.end();
    this.abortReason = reason;
    this.controller?.abort(reason);
    stream?.close();
    // the POST's answer settles even now (a closed session); a departed client never reads it
    this.settle(errorAnswer(503, "the session closed before this request was answered", this.ctx.headers));
  }

  private settle(answer: HttpAnswer): void {
    if (this.answered) return;
    this.answered = true;
    this.ctx.answer(answer);
  }

  private take(message: JsonRpcMessage): void {
    if (isResponse(message)) this.ctx.onResponse?.(message);
  }

  private end(): void {
    if (this.state === "done") return;
    this.state = "done";
    this.ctx.onEnd?.();
  }

  private startStream(): SseStream {
    this.state = "sse";
    const stream = this.ctx.openStream(this);
    this.stream = stream;
    stream.reserve(this.ctx.prime);
    this.settle(new SseAnswer(sseHeaders(this.ctx.headers), stream));
    return stream;
  }

  /** Encodes every message first, so a payload that cannot be encoded writes nothing and rejects whole. */
  private writeAll(target: SseStream, messages: readonly JsonRpcMessage[]): Promise<void> {
    const texts: string[] = [];
    try {
      for (const message of messages) texts.push(encode(message));
    } catch (error) {
      return Promise.reject(error);
    }
    for (const message of messages) this.take(message);
    if (messages.length === 1) return target.write(messages[0] as JsonRpcMessage, texts[0]);
    return Promise.all(messages.map((message, i) => target.write(message, texts[i]))).then(() => undefined);
  }

  private sendJson(): void {
    const body = this.ctx.batch ? `[${this.texts.join(",")}]` : (this.texts[0] as string);
    const status = this.ctx.statusOf === undefined || this.ctx.batch ? 200 : this.ctx.statusOf(this.held[0] as JsonRpcMessage);
    this.settle({ status, headers: { "content-type": "application/json", ...this.ctx.headers }, body });
    this.end();
  }
  private forward(related: readonly JsonRpcMessage[]): Promise<void> {
    const unsolicited = this.ctx.unsolicited;
    if (unsolicited) return unsolicited(related.length === 1 ? (related[0] as JsonRpcMessage) : related);
    // stateless JSON-only: nothing can carry them. Notifications (progress, logs) are dropped, as
    // they would be on any lossy stream; a request must fail or its caller would wait forever.
    if (related.some(isRequest)) return Promise.reject(gone("stateless JSON-only mode cannot carry a request to the client; use SSE or sessions"));
    return Promise.resolve();
  }
}
