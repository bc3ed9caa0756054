/**
 * The Web-standard adapter: `(request: Request) => Promise<Response>` for Workers, Deno, Bun,
 * Hono and anything else built on the Fetch API. Streams are `ReadableStream`s with backpressure;
 * the body is read with a cap, never buffered unbounded.
 */
import { createCore } from "./core";
import type { Core } from "./core";
import { isStreamAnswer } from "./io";
import type { BodyRead, ConnectionWriter, HttpAnswer, HttpIn } from "./io";
import type { StreamableHttpServerOptions } from "./options";

/** A Streamable HTTP handler for the Fetch API. Call `close()` when done: it ends every session. */
export interface StreamableHttpHandler {
  /** Answers one request on the MCP endpoint (and the RFC 9728 metadata paths). */
  (request: Request): Promise<Response>;
  /** Closes every session (their transports close, so the server sessions end) and stops timers. Idempotent. */
  close(): Promise<void>;
  /** Live sessions. */
  readonly sessionCount: number;
  /** Closes sessions idle past `sessionIdleTtlMs` now (a timer also does it); returns how many. */
  sweep(): number;
}

async function readCapped(request: Request, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, reason: "too-large" };
  }
  if (!request.body) return { ok: true, body: new Uint8Array(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        return { ok: false, reason: "too-large" };
      }
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: "aborted" };
  }
  if (chunks.length === 1) return { ok: true, body: chunks[0] as Uint8Array };
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { ok: true, body };
}

function webIn(request: Request): HttpIn {
  const url = new URL(request.url);
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    // a Request built in-process may carry no Host header: its URL is what the runtime derived from it
    header: (name) => request.headers.get(name) ?? (name === "host" ? url.host : undefined),
    headers: () => {
      const all: { [name: string]: string } = {};
      request.headers.forEach((value, name) => {
        all[name] = value;
      });
      return all;
    },
    readBody: (maxBytes) => readCapped(request, maxBytes),
    localAddress: undefined,
    remoteAddress: undefined,
    request,
    onAbort(watcher) {
      if (request.signal.aborted) watcher.clientGone();
      else request.signal.addEventListener("abort", () => watcher.clientGone(), { once: true });
    },
  };
}

const encoder = new TextEncoder();

function webStream(signal: AbortSignal): { body: ReadableStream<Uint8Array>; writer: ConnectionWriter } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  // writers waiting for the consumer to pull (a keep-alive may wait beside a message)
  const waiting: (() => void)[] = [];
  const wake = (): void => {
    for (const resolve of waiting.splice(0)) resolve();
  };
  const listeners: (() => void)[] = [];
  const finish = (): void => {
    if (closed) return;
    closed = true;
    wake();
    for (const listener of listeners.splice(0)) listener();
  };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    pull: wake,
    cancel: finish,
  }, { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength });
  signal.addEventListener("abort", finish, { once: true });
  const writer: ConnectionWriter = {
    async write(text) {
      if (closed) throw new Error("the SSE connection is closed");
      controller.enqueue(encoder.encode(text));
      if ((controller.desiredSize ?? 1) > 0) return;
      await new Promise<void>((resolve) => waiting.push(resolve));
      if (closed) throw new Error("the SSE connection is closed");
    },
    end() {
      if (closed) return;
      try {
        controller.close();
      } catch {
        // already errored by the runtime
      }
      finish();
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else listeners.push(listener);
    },
  };
  return { body, writer };
}

function toResponse(answer: HttpAnswer, signal: AbortSignal): Response {
  if (!isStreamAnswer(answer)) {
    const nullBody = answer.status === 202 || answer.status === 204;
    return new Response(nullBody ? null : (answer.body ?? null), { status: answer.status, headers: answer.headers });
  }
  const { body, writer } = webStream(signal);
  answer.open(writer);
  return new Response(body, { status: answer.status, headers: answer.headers });
}

/** Wraps a core as a Fetch API handler. Its promise always settles (the core never rejects). */
export function fetchHandler(core: Core): StreamableHttpHandler {
  const handler = async (request: Request): Promise<Response> => toResponse(await core.handle(webIn(request)), request.signal);
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sweep: { value: () => core.sweep() },
    sessionCount: { get: () => core.sessionCount },
  }) as StreamableHttpHandler;
}

/**
 * Creates the Streamable HTTP server handler (MCP 2025-11-25 basic/transports): one endpoint for
 * POST, GET and DELETE, sessions, SSE, resumability, DNS-rebinding checks, auth and RFC 9728
 * metadata. The handler owns the transports it creates; `close()` ends them all.
 */
export function createStreamableHttpHandler(options: StreamableHttpServerOptions): StreamableHttpHandler {
  return fetchHandler(createCore(options));
}
