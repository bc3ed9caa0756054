/**
 * The `Exchange` of one POST frame (MCP 2025-11-25 transports, "Sending Messages to the Server"):
 * replies are written into that POST's response, as one JSON body or as an SSE stream, and the
 * response ends once every request of the frame has had its response.
 *
 * In `auto` mode the answer stays JSON unless the server sends a notification or request related
 * to the call before the last response; then it becomes SSE and what was held back goes first.
 */
import { isRequest, isResponse } from "@proto/jsonrpc";
import type { Exchange, ExchangeInfo, JsonRpcId, JsonRpcMessage, JsonRpcPayload, JsonRpcResponse } from "@proto/jsonrpc";
import { encode } from "@proto/jsonrpc";
import { HttpServerError, HttpServerFault } from "./errors";
import type { HttpOut, OutHeaders } from "./io";
import type { StreamHooks, SseStream } from "./stream";

/** How a POST answers requests: `auto` (JSON unless related messages come first), `json` only, or `sse` always. */
export type ResponseMode = "auto" | "json" | "sse";

/** What `createPostExchange` needs. */
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
}

/** A POST exchange and its control handle. */
export interface PostExchange {
  readonly exchange: Exchange;
  /** Aborts the exchange (session closed): pending replies reject, the response ends. */
  abort(reason: Error): void;
}

function keyOf(id: JsonRpcId | null): string {
  return id === null ? "null" : typeof id === "number" ? `n${id}` : `s${id}`;
}

const SSE_HEADERS: OutHeaders = { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform" };

/** Creates the exchange of one POST frame. */
export function createPostExchange(ctx: PostExchangeContext): PostExchange {
  const waiting = new Map<string, number>();
  for (const id of ctx.expected) waiting.set(keyOf(id), (waiting.get(keyOf(id)) ?? 0) + 1);
  let remaining = ctx.expected.length;
  let state: "pending" | "sse" | "done" = "pending";
  const held: JsonRpcMessage[] = [];
  // created on first read: an AbortController costs more than the rest of a small exchange
  let controller: AbortController | undefined;
  let abortReason: Error | undefined;
  let stream: SseStream | undefined;

  function settle(id: JsonRpcId | null): void {
    const key = keyOf(id);
    const count = waiting.get(key);
    if (count === undefined) return;
    if (count === 1) waiting.delete(key);
    else waiting.set(key, count - 1);
    remaining -= 1;
  }

  function take(message: JsonRpcMessage): void {
    if (!isResponse(message)) return;
    ctx.onResponse?.(message);
    settle(message.id);
  }

  /** The peer will never answer `id` (the client cancelled it): stop waiting for it. */
  function drop(id: JsonRpcId): void {
    if (state === "done") return;
    settle(id);
    if (remaining > 0) return;
    if (state === "sse" && stream) stream.finish();
    else if (held.length > 0) sendJson();
    else {
      ctx.out.send(202, ctx.headers);
      end();
    }
  }

  function end(): void {
    if (state === "done") return;
    state = "done";
    ctx.onEnd?.();
  }

  function abort(reason: Error): void {
    if (state === "done") return;
    const wasStream = stream;
    end();
    abortReason = reason;
    controller?.abort(reason);
    wasStream?.close();
  }

  function startStream(): SseStream {
    state = "sse";
    const opened = ctx.openStream({
      lost: () => abort(new HttpServerError(HttpServerFault.StreamGone, "the client disconnected before the stream could be resumed")),
      done: () => end(),
      fault: ctx.fault,
    });
    stream = opened;
    opened.attach(ctx.out.stream(200, { ...SSE_HEADERS, ...ctx.headers }), ctx.prime);
    return opened;
  }

  function writeAll(target: SseStream, messages: readonly JsonRpcMessage[]): Promise<void> {
    const writes = messages.map((message) => target.write(message));
    if (remaining === 0) target.finish();
    return writes.length === 1 ? (writes[0] as Promise<void>) : Promise.all(writes).then(() => undefined);
  }

  function sendJson(): void {
    const body = ctx.batch ? encode(held) : encode(held[0] as JsonRpcMessage);
    ctx.out.send(200, { "content-type": "application/json", ...ctx.headers }, body);
    end();
  }

  function reply(payload: JsonRpcPayload): Promise<void> {
    if (state === "done") {
      return Promise.reject(new HttpServerError(HttpServerFault.StreamGone, "this POST was already answered or its client went away; send unrelated messages with transport.send"));
    }
    const messages: readonly JsonRpcMessage[] = Array.isArray(payload) ? payload : [payload as JsonRpcMessage];
    for (const message of messages) take(message);
    if (state === "sse" && stream) return writeAll(stream, messages);
    const related = messages.filter((message) => !isResponse(message));
    if (related.length > 0 && ctx.mode !== "json") {
      const opened = startStream();
      return writeAll(opened, held.splice(0, held.length).concat(messages));
    }
    for (const message of messages) if (isResponse(message)) held.push(message);
    const forwarded = related.length > 0 ? forward(related) : Promise.resolve();
    if (remaining === 0) sendJson();
    return forwarded;
  }

  function forward(related: readonly JsonRpcMessage[]): Promise<void> {
    if (ctx.unsolicited) return ctx.unsolicited(related.length === 1 ? (related[0] as JsonRpcMessage) : related);
    // stateless JSON-only: nothing can carry them. Notifications (progress, logs) are dropped, as
    // they would be on any lossy stream; a request must fail or its caller would wait forever.
    if (related.some(isRequest)) {
      return Promise.reject(new HttpServerError(HttpServerFault.StreamGone, "stateless JSON-only mode cannot carry a request to the client; use SSE or sessions"));
    }
    return Promise.resolve();
  }

  ctx.out.onAbort(() => {
    if (state === "pending") abort(new HttpServerError(HttpServerFault.StreamGone, "the client disconnected before the response"));
  });
  if (ctx.mode === "sse") startStream();

  const exchange: Exchange = {
    reply,
    drop,
    get signal() {
      if (!controller) {
        controller = new AbortController();
        if (abortReason) controller.abort(abortReason);
      }
      return controller.signal;
    },
    info: ctx.info,
  };
  return { exchange, abort };
}
