/**
 * The Node adapter: `(req, res) => void` for node:http, Express and Fastify (`reply.raw`). It
 * drives the core directly on `IncomingMessage`/`ServerResponse`: no `Request`, no
 * `ReadableStream`, no `TextEncoder` on the hot path. The body is read with a cap and a timeout;
 * `createNodeHttpServer` adds header and request timeouts against slow-loris clients, which
 * leave SSE responses alone (they only bound how long the *request* may take to arrive).
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { createCore } from "./core";
import type { BodyRead, ConnectionWriter, HttpIn, HttpOut, HttpRequestLike, OutHeaders } from "./io";
import type { StreamableHttpServerOptions } from "./options";

/** Options of `createNodeHttpHandler`. */
export interface NodeHttpHandlerOptions extends StreamableHttpServerOptions {
  /** Time allowed for a request body to arrive in full, in ms; then 408 and the connection closes. Default 30,000. */
  readonly bodyTimeoutMs?: number;
}

/** A Node request listener serving the MCP endpoint. Call `close()` when done: it ends every session. */
export interface NodeHttpHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Closes every session and stops timers. Idempotent. */
  close(): Promise<void>;
  /** Live sessions. */
  readonly sessionCount: number;
  /** Closes sessions idle past `sessionIdleTtlMs` now; returns how many. */
  sweep(): number;
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : undefined;
}

/** A body an upstream middleware (express.json()) already consumed, as bytes. */
function parsedBody(req: IncomingMessage): Uint8Array | undefined {
  const body = (req as { body?: unknown }).body;
  if (body === undefined || !req.readableEnded) return undefined;
  if (body instanceof Uint8Array) return body;
  return Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
}

function readBody(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyRead> {
  const parsed = parsedBody(req);
  if (parsed) return Promise.resolve(parsed.byteLength > maxBytes ? { ok: false, reason: "too-large" } : { ok: true, body: parsed });
  if (Number(req.headers["content-length"] ?? NaN) > maxBytes) return Promise.resolve({ ok: false, reason: "too-large" });
  return new Promise<BodyRead>((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: BodyRead): void => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onGone);
      if (!result.ok) req.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) done({ ok: false, reason: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = (): void => done({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
    const onGone = (): void => done({ ok: false, reason: "aborted" });
    const timer = setTimeout(() => done({ ok: false, reason: "timeout" }), timeoutMs);
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onGone);
  });
}

function nodeIn(req: IncomingMessage, bodyTimeoutMs: number): HttpIn {
  const raw = req.url ?? "/";
  const query = raw.indexOf("?");
  const request: HttpRequestLike = {
    method: req.method ?? "GET",
    get url() {
      return `http://${headerValue(req, "host") ?? "localhost"}${raw}`;
    },
    headers: { get: (name) => headerValue(req, name.toLowerCase()) ?? null },
  };
  return {
    method: req.method ?? "GET",
    path: query < 0 ? raw : raw.slice(0, query),
    header: (name) => headerValue(req, name),
    headers: () => {
      const all: { [name: string]: string } = {};
      for (const name in req.headers) {
        const value = headerValue(req, name);
        if (value !== undefined) all[name] = value;
      }
      return all;
    },
    readBody: (maxBytes) => readBody(req, maxBytes, bodyTimeoutMs),
    localAddress: req.socket.localAddress,
    request,
  };
}

function nodeWriter(res: ServerResponse): ConnectionWriter {
  const listeners: (() => void)[] = [];
  let closed = false;
  res.once("close", () => {
    closed = true;
    for (const listener of listeners.splice(0)) listener();
  });
  return {
    write(text) {
      if (closed || res.writableEnded) return Promise.reject(new Error("the SSE connection is closed"));
      if (res.write(text)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const go = (): void => {
          res.off("drain", go).off("close", go);
          resolve();
        };
        res.on("drain", go).on("close", go);
      });
    },
    end() {
      if (!res.writableEnded) res.end();
    },
    get closed() {
      return closed || res.writableEnded;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
}

function nodeOut(req: IncomingMessage, res: ServerResponse): HttpOut {
  return {
    send(status, headers: OutHeaders, body) {
      if (res.headersSent) {
        res.end();
        return;
      }
      if (body === undefined) {
        res.writeHead(status, headers);
        res.end();
        return;
      }
      headers["content-length"] = String(Buffer.byteLength(body));
      res.writeHead(status, headers);
      res.end(body);
    },
    stream(status, headers) {
      res.writeHead(status, headers);
      res.flushHeaders();
      req.socket.setNoDelay(true);
      return nodeWriter(res);
    },
    onAbort(listener) {
      res.once("close", () => {
        if (!res.writableFinished) listener();
      });
    },
  };
}

/**
 * Creates a Node request listener for the Streamable HTTP endpoint (MCP 2025-11-25
 * basic/transports). Mount it on node:http (`createNodeHttpServer`), Express (`app.all("/mcp",
 * handler)`; a body already parsed by `express.json()` is used) or Fastify (`handler(req.raw,
 * reply.raw)`). The handler owns the transports it creates; `close()` ends them all.
 */
export function createNodeHttpHandler(options: NodeHttpHandlerOptions): NodeHttpHandler {
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  if (!Number.isFinite(bodyTimeoutMs) || bodyTimeoutMs <= 0) throw new TypeError(`bodyTimeoutMs must be a positive number, got ${String(bodyTimeoutMs)}`);
  const core = createCore(options);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    void core.handle(nodeIn(req, bodyTimeoutMs), nodeOut(req, res));
  };
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sweep: { value: () => core.sweep() },
    sessionCount: { get: () => core.sessionCount },
  }) as NodeHttpHandler;
}

/** Server-level limits of `createNodeHttpServer`. */
export interface NodeServerLimits {
  /** Time allowed to receive the request headers, in ms. Default 10,000. */
  readonly headersTimeoutMs?: number;
  /** Time allowed to receive the whole request (not the response: SSE streams stay open), in ms. Default 30,000. */
  readonly requestTimeoutMs?: number;
  /** Idle time of a kept-alive connection between requests, in ms. Default 5,000. */
  readonly keepAliveTimeoutMs?: number;
  /** Largest accepted request header block in bytes (431 beyond). Default 16,384. */
  readonly maxHeaderSize?: number;
  /** How often the timeouts above are checked, in ms. Default 1,000. */
  readonly connectionsCheckingIntervalMs?: number;
}

/**
 * A `node:http` server with slow-loris defaults around `listener`: header and request timeouts,
 * a header size cap, a short keep-alive. Closing the server closes the handler's sessions when
 * `listener` is a `NodeHttpHandler`. The caller owns the server (`listen`, `close`).
 */
export function createNodeHttpServer(listener: (req: IncomingMessage, res: ServerResponse) => void, limits: NodeServerLimits = {}): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs ?? 10_000,
      requestTimeout: limits.requestTimeoutMs ?? 30_000,
      keepAliveTimeout: limits.keepAliveTimeoutMs ?? 5_000,
      maxHeaderSize: limits.maxHeaderSize ?? 16_384,
      connectionsCheckingInterval: limits.connectionsCheckingIntervalMs ?? 1_000,
    },
    listener,
  );
  const close = (listener as Partial<NodeHttpHandler>).close;
  if (typeof close === "function") server.on("close", () => void close());
  return server;
}
