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
import type { HttpAnswer } from "./io";
import { NodeIn } from "./node-io";
import type { StreamableHttpServerOptions } from "./options";

/** Options of `createNodeHttpHandler`. */
export interface NodeHttpHandlerOptions extends StreamableHttpServerOptions {
  /** Time allowed for a request body to arrive in full, in ms; then 408 and the connection closes. Default 30,000. */
  readonly bodyTimeoutMs?: number;
}

/**
 * A Node request listener serving the MCP endpoint. Call `close()` when done: it ends every session.
 * `body` is the request body when a framework has already read it (Fastify's `request.body`,
 * Koa's `ctx.request.body` after a body parser): bytes or a string are decoded as they are,
 * anything else is taken as the parsed JSON (a function, such as Express's `next`, is ignored). Without it the handler reads `req` itself (or uses
 * `req.body` left by `express.json()`); a stream already read with no body given is a 400 that
 * says so, never a wait for `bodyTimeoutMs`.
 */
export interface NodeHttpHandler {
  (req: IncomingMessage, res: ServerResponse, body?: unknown): void;
  /** Closes every session and stops timers. Idempotent. */
  close(): Promise<void>;
  /** Live sessions. */
  readonly sessionCount: number;
  /** Closes sessions idle past `sessionIdleTtlMs` now; returns how many. */
  sweep(): number;
  /**
   * Tells the handler the address its server listens on (`server.address()`). A wildcard bind
   * (`0.0.0.0`, `::`) without `hostCheck.allowedHosts` is warned about once through `logger`:
   * such a server accepts off-loopback requests only when `Host` is the address they arrived on.
   * `createNodeHttpServer` calls it on `listening`; call it yourself on another server.
   */
  bound(address: string): void;
}

/**
 * Creates a Node request listener for the Streamable HTTP endpoint (MCP 2025-11-25
 * basic/transports). Mount it on node:http (`createNodeHttpServer`), Express (`app.all("/mcp",
 * handler)`; a body already parsed by `express.json()` is used), Fastify (`handler(request.raw,
 * reply.raw, request.body)` after `reply.hijack()`) or Koa (`handler(ctx.req, ctx.res,
 * ctx.request.body)` with `ctx.respond = false`); the transport-http README has each recipe.
 * The handler owns the transports it creates; `close()` ends them all.
 */
export function createNodeHttpHandler(options: NodeHttpHandlerOptions): NodeHttpHandler {
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 30_000;
  if (!Number.isFinite(bodyTimeoutMs) || bodyTimeoutMs <= 0) throw new TypeError(`bodyTimeoutMs must be a positive number, got ${String(bodyTimeoutMs)}`);
  const core = createCore(options);
  const respond = (input: NodeIn, answer: HttpAnswer): void => {
    try {
      input.respond(answer);
    } catch (error) {
      options.logger?.error("the Streamable HTTP handler failed on a request", error);
    }
  };
  const handler = (req: IncomingMessage, res: ServerResponse, body?: unknown): void => {
    // Express calls a route handler with `next` third: a function is never a body
    const input = new NodeIn(req, res, bodyTimeoutMs, typeof body === "function" ? undefined : body);
    const answer = core.serve(input);
    // an answer known at once (a POST read before, on a local session) is written in this turn, without a promise
    if (answer instanceof Promise) void answer.then((known) => respond(input, known));
    else respond(input, answer);
  };
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sweep: { value: () => core.sweep() },
    bound: { value: (address: string) => core.bound(address) },
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
 * `listener` is a `NodeHttpHandler`, and listening tells it its address (a wildcard bind without
 * `allowedHosts` is warned about). The caller owns the server (`listen`, `close`).
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
  const { close, bound } = listener as Partial<NodeHttpHandler>;
  if (typeof close === "function") server.on("close", () => void close());
  if (typeof bound === "function") {
    server.on("listening", () => {
      const address = server.address();
      if (typeof address === "object" && address !== null) bound(address.address);
    });
  }
  return server;
}
