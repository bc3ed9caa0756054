/**
 * One Node request as the core sees it (`HttpIn` over `IncomingMessage`), and the same object as
 * the writer of its answer on the `ServerResponse` (`ConnectionWriter` for an SSE answer): one
 * object and one `close` listener per request instead of a dozen closures, because at tens of
 * thousands of requests a second the allocations show up as garbage-collection time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isStreamAnswer } from "./io";
import type { AbortWatcher, BodyRead, ConnectionWriter, HttpAnswer, HttpIn, HttpRequestLike, OutHeaders } from "./io";
import { readNodeBody } from "./node-body";

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
}

/** Characters a writer holds before the end of its first turn; past it the head and the text leave at once. */
const MAX_HELD = 64 * 1024;

/** Writers whose response head waits for the end of this turn of the event loop (one `setImmediate` for all). */
let unflushed: NodeIn[] = [];

function flushAll(): void {
  const writers = unflushed;
  unflushed = [];
  for (const writer of writers) writer.flush();
}

/** Where a response finds its `NodeIn` (one shared `close` listener instead of a closure per response). */
const OWNER = Symbol("proto.nodeIn");

function responseClosed(this: ServerResponse): void {
  (this as ServerResponse & { [OWNER]?: NodeIn })[OWNER]?.responseClosed();
}

function waitForDrain(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const go = (): void => {
      res.off("drain", go).off("close", go);
      resolve();
    };
    res.on("drain", go).on("close", go);
  });
}

/**
 * The core's view of a Node request, and the writer of its SSE answer. An SSE response's head
 * (status, headers) and what is written in the same turn of the event loop wait until that turn
 * ends: a stream finished by then (a POST answered at once: priming event, answer, end) goes out
 * as one response with a `Content-Length` in one write, as a plain JSON answer does; otherwise the
 * head and the events so far leave together, and later events are written as they come.
 */
export class NodeIn implements HttpIn, ConnectionWriter {
  readonly method: string;
  readonly path: string;
  private requestLike: HttpRequestLike | undefined;
  private watcher: AbortWatcher | undefined;
  private listening = false;
  private ended = false;
  private closeListener: (() => void) | undefined;
  private moreListeners: (() => void)[] | undefined;
  /** SSE text written before the head was sent; undefined once it is (or before a stream starts). */
  private held: string | undefined;
  private status = 200;
  private outHeaders: OutHeaders | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly bodyTimeoutMs: number,
    /** A body a framework read before us (Fastify's `request.body`, Koa's `ctx.request.body`); undefined when none. */
    private readonly preRead: unknown,
  ) {
    this.method = req.method ?? "GET";
    const raw = req.url ?? "/";
    const query = raw.indexOf("?");
    this.path = query < 0 ? raw : raw.slice(0, query);
  }

  onAbort(watcher: AbortWatcher): void {
    this.watcher = watcher;
    this.listen();
  }

  get localAddress(): string | undefined {
    return this.req.socket.localAddress;
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  /** Built on first use: only an `authenticate` hook reads it. */
  get request(): HttpRequestLike {
    const req = this.req;
    this.requestLike ??= {
      method: this.method,
      get url() {
        return `http://${headerValue(req, "host") ?? "localhost"}${req.url ?? "/"}`;
      },
      headers: { get: (name) => headerValue(req, name.toLowerCase()) ?? null },
    };
    return this.requestLike;
  }

  header(name: string): string | undefined {
    return headerValue(this.req, name);
  }

  /** Node's own header object when every value is a string (the usual case): no copy. */
  headers(): { [name: string]: string } {
    const raw = this.req.headers;
    for (const name in raw) {
      if (typeof raw[name] === "string") continue;
      const all: { [name: string]: string } = {};
      for (const key in raw) {
        const value = headerValue(this.req, key);
        if (value !== undefined) all[key] = value;
      }
      return all;
    }
    return raw as { [name: string]: string };
  }

  readBody(maxBytes: number): BodyRead | Promise<BodyRead> {
    return readNodeBody(this.req, this.preRead, maxBytes, this.bodyTimeoutMs);
  }

  /** Writes the core's answer on the response (a stream answer gets this object as its writer at once). */
  respond(answer: HttpAnswer): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) {
      if (!res.writableEnded) res.end();
      return;
    }
    const { headers } = answer;
    if (isStreamAnswer(answer)) {
      this.status = answer.status;
      this.outHeaders = headers;
      this.held = "";
      this.listen();
      if (unflushed.push(this) === 1) setImmediate(flushAll);
      answer.open(this);
      return;
    }
    const { body } = answer;
    if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
    res.writeHead(answer.status, headers);
    res.end(body);
  }

  /** The response closed (finished, or the client went away). */
  responseClosed(): void {
    this.ended = true;
    if (this.watcher !== undefined && !this.res.writableFinished) this.watcher.clientGone();
    const first = this.closeListener;
    const more = this.moreListeners;
    this.closeListener = undefined;
    this.moreListeners = undefined;
    first?.();
    if (more !== undefined) for (const listener of more) listener();
  }

  write(text: string): Promise<void> | undefined {
    const res = this.res;
    if (this.ended || res.writableEnded) return Promise.reject(new Error("the SSE connection is closed"));
    if (this.held !== undefined) {
      this.held += text;
      // a long replay in one turn: send what is held now and let backpressure pace the rest
      if (this.held.length >= MAX_HELD) this.flush();
      return undefined;
    }
    return res.write(text) ? undefined : waitForDrain(res);
  }

  /** Sends the head and the text held so far (the end of the turn in which the stream opened). */
  flush(): void {
    const { held, res } = this;
    if (held === undefined || this.ended || res.writableEnded) return;
    this.held = undefined;
    res.writeHead(this.status, this.outHeaders);
    if (held === "") res.flushHeaders();
    else res.write(held);
    this.req.socket?.setNoDelay(true);
  }

  end(): void {
    const { held, res } = this;
    if (res.writableEnded) return;
    if (held === undefined || this.ended) {
      this.held = undefined;
      res.end();
      return;
    }
    // finished in the turn it opened: one complete response, one write
    this.held = undefined;
    const headers = this.outHeaders as OutHeaders;
    headers["content-length"] = String(Buffer.byteLength(held));
    res.writeHead(this.status, headers);
    res.end(held);
  }

  get closed(): boolean {
    return this.ended || this.res.writableEnded;
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else if (this.closeListener === undefined) this.closeListener = listener;
    else (this.moreListeners ??= []).push(listener);
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    (this.res as ServerResponse & { [OWNER]?: NodeIn })[OWNER] = this;
    this.res.on("close", responseClosed);
  }
}
