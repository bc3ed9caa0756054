/**
 * The `Exchange` of one POST frame (MCP 2025-11-25 transports, "Sending Messages to the Server"):
 * replies are written into that POST's response, as one JSON body or as an SSE stream, and the
 * response ends once every request of the frame has had its response (or was dropped).
 *
 * In `auto` mode the answer stays JSON unless the server sends a notification or request related
 * to the call before the last response; then it becomes SSE and what was held back goes first.
 * A class, not closures: one allocation per POST on the hot path.
 */
import { encode, isRequest, isResponse } from "@proto/jsonrpc";
import type { Exchange, ExchangeInfo, JsonRpcId, JsonRpcMessage, JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";
import { HttpServerError, HttpServerFault } from "./errors";
import type { HttpOut, OutHeaders } from "./io";
import type { StreamHooks, SseStream } from "./stream";

/** How a POST answers requests: `auto` (JSON unless related messages come first), `json` only, or `sse` always. */
export type ResponseMode = "auto" | "json" | "sse";

/** What a `PostExchange` needs. */
export interface PostExchangeContext {
  readonly info: ExchangeInfo;
  readonly out: HttpOut;
  readonly mode: ResponseMode;
  /** The frame was a JSON array: answer with an array in JSON mode. */
  readonly batch: boolean;
  /** Ids the frame's requests carry (`null` for invalid elements whose id was unreadable). */
  readonly expected: readonly (JsonRpcId | null)[];
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

const SSE_HEADERS: OutHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" };

function keyOf(id: JsonRpcId | null): string {
  return id === null ? "null" : typeof id === "number" ? `n${id}` : `s${id}`;
}

function gone(message: string): HttpServerError {
  return new HttpServerError(HttpServerFault.StreamGone, message);
}

/** The exchange of one POST frame; it is the `Exchange` handed to the sink. */
export class PostExchange implements Exchange {
  readonly info: ExchangeInfo;
  private state: "pending" | "sse" | "done" = "pending";
  private remaining: number;
  /** The single expected id key (the usual frame), or a multiset of them for a batch. */
  private readonly single: string | undefined;
  private readonly waiting: Map<string, number> | undefined;
  private readonly held: JsonRpcMessage[] = [];
  // created on first read: an AbortController costs more than the rest of a small exchange
  private controller: AbortController | undefined;
  private abortReason: Error | undefined;
  private stream: SseStream | undefined;

  constructor(private readonly ctx: PostExchangeContext) {
    this.info = ctx.info;
    this.remaining = ctx.expected.length;
    if (ctx.expected.length === 1) this.single = keyOf(ctx.expected[0] as JsonRpcId | null);
    else {
      const waiting = new Map<string, number>();
      for (const id of ctx.expected) waiting.set(keyOf(id), (waiting.get(keyOf(id)) ?? 0) + 1);
      this.waiting = waiting;
    }
    ctx.out.onAbort(() => {
      if (this.state === "pending") this.abort(gone("the client disconnected before the response"));
    });
    if (ctx.mode === "sse") this.startStream();
  }

  /** Aborted when the POST's client leaves (and the stream cannot be resumed), or the session closes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason);
    }
    return this.controller.signal;
  }

  /** Sends a payload on this POST's answer. */
  reply(payload: JsonRpcPayload): Promise<void> {
    if (this.state === "done") return Promise.reject(gone("this POST was already answered or its client went away; send unrelated messages with transport.send"));
    const messages: readonly JsonRpcMessage[] = Array.isArray(payload) ? payload : [payload as JsonRpcMessage];
    for (const message of messages) this.take(message);
    if (this.state === "sse" && this.stream) return this.writeAll(this.stream, messages);
    const related = messages.filter((message) => !isResponse(message));
    if (related.length > 0 && this.ctx.mode !== "json") return this.writeAll(this.startStream(), this.held.splice(0).concat(messages));
    for (const message of messages) if (isResponse(message)) this.held.push(message);
    const forwarded = related.length > 0 ? this.forward(related) : Promise.resolve();
    if (this.remaining === 0) this.sendJson();
    return forwarded;
  }

  /** The peer will never answer `id` (the client cancelled it): stop waiting for it. */
  drop(id: JsonRpcId): void {
    if (this.state === "done") return;
    this.settle(id);
    if (this.remaining > 0) return;
    if (this.state === "sse" && this.stream) this.stream.finish();
    else if (this.held.length > 0) this.sendJson();
    else {
      this.ctx.out.send(202, this.ctx.headers);
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
  }

  private settle(id: JsonRpcId | null): void {
    const key = keyOf(id);
    if (this.waiting === undefined) {
      if (key !== this.single || this.remaining === 0) return;
      this.remaining = 0;
      return;
    }
    const count = this.waiting.get(key);
    if (count === undefined) return;
    if (count === 1) this.waiting.delete(key);
    else this.waiting.set(key, count - 1);
    this.remaining -= 1;
  }

  private take(message: JsonRpcMessage): void {
    if (!isResponse(message)) return;
    this.ctx.onResponse?.(message);
    this.settle(message.id);
  }

  private end(): void {
    if (this.state === "done") return;
    this.state = "done";
    this.ctx.onEnd?.();
  }

  private startStream(): SseStream {
    this.state = "sse";
    const stream = this.ctx.openStream({
      lost: () => this.abort(gone("the client disconnected before the stream could be resumed")),
      done: () => this.end(),
      fault: this.ctx.fault,
    });
    this.stream = stream;
    stream.attach(this.ctx.out.stream(200, { ...SSE_HEADERS, ...this.ctx.headers }), this.ctx.prime);
    return stream;
  }

  private writeAll(target: SseStream, messages: readonly JsonRpcMessage[]): Promise<void> {
    const writes = messages.map((message) => target.write(message));
    if (this.remaining === 0) target.finish();
    return writes.length === 1 ? (writes[0] as Promise<void>) : Promise.all(writes).then(() => undefined);
  }

  private sendJson(): void {
    const body = this.ctx.batch ? encode(this.held) : encode(this.held[0] as JsonRpcMessage);
    const status = this.ctx.statusOf === undefined || this.ctx.batch ? 200 : this.ctx.statusOf(this.held[0] as JsonRpcMessage);
    this.ctx.out.send(status, { "content-type": "application/json", ...this.ctx.headers }, body);
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
