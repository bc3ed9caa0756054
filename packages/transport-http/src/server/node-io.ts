/**
 * `HttpIn` over Node's `IncomingMessage`, and the writing of an `HttpAnswer` onto a
 * `ServerResponse`, as classes: one object per request instead of a dozen closures, because at
 * tens of thousands of requests a second the allocations show up as garbage-collection time.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { isStreamAnswer } from "./io";
import type { BodyRead, ConnectionWriter, HttpAnswer, HttpIn, HttpRequestLike, OutHeaders } from "./io";

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
}

/** A body read before us, as bytes: bytes and strings as they are, anything else as its JSON. */
function bodyBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
}

/** A body an upstream middleware (express.json()) already consumed and left on `req.body`. */
function parsedBody(req: IncomingMessage): Uint8Array | undefined {
  const body = (req as { body?: unknown }).body;
  return body === undefined || !req.readableEnded ? undefined : bodyBytes(body);
}

/** Reads a body with a byte cap and a deadline. */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onData = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size > this.maxBytes) this.done({ ok: false, reason: "too-large" });
    else this.chunks.push(chunk);
  };
  private readonly onEnd = (): void => {
    const { chunks, size } = this;
    this.done({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
  };
  private readonly onGone = (): void => this.done({ ok: false, reason: "aborted" });

  constructor(
    private readonly req: IncomingMessage,
    private readonly maxBytes: number,
    timeoutMs: number,
    private readonly resolve: (read: BodyRead) => void,
  ) {
    this.timer = setTimeout(() => this.done({ ok: false, reason: "timeout" }), timeoutMs);
    req.on("data", this.onData).on("end", this.onEnd).on("error", this.onGone).on("close", this.onGone);
  }

  private done(result: BodyRead): void {
    clearTimeout(this.timer);
    this.req.off("data", this.onData).off("end", this.onEnd).off("error", this.onGone).off("close", this.onGone);
    if (!result.ok) this.req.pause();
    this.resolve(result);
  }
}

/** The core's view of a Node request. */
export class NodeIn implements HttpIn {
  readonly method: string;
  readonly path: string;
  private requestLike: HttpRequestLike | undefined;

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

  onAbort(listener: () => void): void {
    const res = this.res;
    res.once("close", () => {
      if (!res.writableFinished) listener();
    });
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

  readBody(maxBytes: number): Promise<BodyRead> {
    const req = this.req;
    const parsed = this.preRead !== undefined ? bodyBytes(this.preRead) : parsedBody(req);
    if (parsed) return Promise.resolve(parsed.byteLength > maxBytes ? { ok: false, reason: "too-large" } : { ok: true, body: parsed });
    // the stream was read by someone else and the body not handed over: waiting would hang until bodyTimeoutMs
    if (req.readableEnded) return Promise.resolve({ ok: false, reason: "consumed" });
    if (Number(req.headers["content-length"] ?? NaN) > maxBytes) return Promise.resolve({ ok: false, reason: "too-large" });
    return new Promise<BodyRead>((resolve) => new BodyReader(req, maxBytes, this.bodyTimeoutMs, resolve));
  }
}

/** Characters a writer holds before the end of its first turn; past it the head and the text leave at once. */
const MAX_HELD = 64 * 1024;

/** Writers whose response head waits for the end of this turn of the event loop (one `setImmediate` for all). */
let unflushed: NodeWriter[] = [];

function flushAll(): void {
  const writers = unflushed;
  unflushed = [];
  for (const writer of writers) writer.flush();
}

/**
 * One SSE response. Its head (status, headers) and what is written in the same turn of the event
 * loop wait until that turn ends: a stream that is finished by then (a POST answered at once:
 * priming event, answer, end) goes out as one response with a `Content-Length` in one write, as
 * a plain JSON answer does; otherwise the head and the events so far leave together, and later
 * events are written as they come.
 */
class NodeWriter implements ConnectionWriter {
  private readonly listeners: (() => void)[] = [];
  private ended = false;
  /** Text written before the head was sent; undefined once it is. */
  private held: string | undefined = "";

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly status: number,
    private readonly headers: OutHeaders,
  ) {
    res.once("close", () => {
      this.ended = true;
      for (const listener of this.listeners.splice(0)) listener();
    });
    if (unflushed.push(this) === 1) setImmediate(flushAll);
  }

  write(text: string): Promise<void> {
    const res = this.res;
    if (this.ended || res.writableEnded) return Promise.reject(new Error("the SSE connection is closed"));
    if (this.held !== undefined) {
      this.held += text;
      if (this.held.length < MAX_HELD) return Promise.resolve();
      // a long replay in one turn: send what is held now and let backpressure pace the rest
      this.flush();
      return Promise.resolve();
    }
    if (res.write(text)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = (): void => {
        res.off("drain", go).off("close", go);
        resolve();
      };
      res.on("drain", go).on("close", go);
    });
  }

  /** Sends the head and the text held so far (the end of the turn in which the stream opened). */
  flush(): void {
    const { held, res } = this;
    if (held === undefined || this.ended || res.writableEnded) return;
    this.held = undefined;
    res.writeHead(this.status, this.headers);
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
    this.headers["content-length"] = String(Buffer.byteLength(held));
    res.writeHead(this.status, this.headers);
    res.end(held);
  }

  get closed(): boolean {
    return this.ended || this.res.writableEnded;
  }

  onClose(listener: () => void): void {
    if (this.ended) listener();
    else this.listeners.push(listener);
  }
}

/** Writes the core's answer on a Node response (a stream answer gets its writer at once). */
export function writeAnswer(req: IncomingMessage, res: ServerResponse, answer: HttpAnswer): void {
  if (res.headersSent || res.destroyed) {
    if (!res.writableEnded) res.end();
    return;
  }
  const { headers } = answer;
  if (isStreamAnswer(answer)) {
    answer.open(new NodeWriter(req, res, answer.status, headers));
    return;
  }
  const { body } = answer;
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  res.writeHead(answer.status, headers);
  res.end(body);
}
