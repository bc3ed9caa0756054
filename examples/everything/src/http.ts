/**
 * Serves the everything server over Streamable HTTP (MCP 2025-11-25 basic/transports) with
 * @proto/transport-http's Node handler: sessions, SSE answers with priming events and an event
 * store (clients resume with `Last-Event-ID`), Host/Origin checks for the loopback bind, and
 * CORS for browser-side clients when asked (off by default).
 */
import type { IncomingMessage, Server as NodeServer, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryEventStore } from "@proto/transport-http";
import { DEFAULT_MAX_MESSAGE_BYTES } from "@proto/jsonrpc";
import type { CorsOptions } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { createEverythingServer, type EverythingOptions } from "./everything-server";
import { createStreamCloser } from "./stream-closer";
import type { CloseStream } from "./tools";

/** Largest POST body read, in bytes (the handler's own default): also given to the handler as `maxMessageBytes`, so the two limits are one. */
const MAX_BODY_BYTES = DEFAULT_MAX_MESSAGE_BYTES;

/**
 * What a refused upload may still send after its 413, read and discarded, so a client that is
 * still writing its body reads the answer instead of a reset; past it the connection is cut.
 */
const MAX_DISCARDED_BYTES = 2 * MAX_BODY_BYTES;

/** Options of `startHttpServer`. */
export interface HttpOptions extends Omit<EverythingOptions, "closeStream"> {
  /** The port; 0 picks a free one. */
  readonly port: number;
  /** The address to bind. Default 127.0.0.1 (loopback: Host/Origin checks on). */
  readonly host?: string;
  /**
   * Lets browser pages on other origins call the endpoint (a browser-side MCP host, the MCP
   * Apps dashboard's host). Off by default. Explicit `origins` are also admitted by the Origin
   * check (a loopback bind otherwise admits loopback origins only); `"*"` answers any origin
   * the Origin check admits.
   */
  readonly cors?: CorsOptions;
}

/** The handler's CORS and Origin options for `cors`. */
function corsSettings(cors: CorsOptions | undefined) {
  if (cors === undefined) return {};
  return cors.origins === "*" ? { cors } : { cors, hostCheck: { allowedOrigins: [...cors.origins] } };
}

/** A running HTTP server. */
export interface RunningHttpServer {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Closes every session and the listening socket. */
  close(): Promise<void>;
}

type BodyRead = { readonly ok: true; readonly body: Uint8Array } | { readonly ok: false; readonly tooLarge: boolean };

/** Reads one POST body with the handler's cap: one object per request, its listeners bound once. */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly onData = (chunk: Buffer): void => {
    this.size += chunk.length;
    if (this.size <= MAX_BODY_BYTES) this.chunks.push(chunk);
    else this.done({ ok: false, tooLarge: true });
  };
  private readonly onEnd = (): void => {
    const { chunks, size } = this;
    this.done({ ok: true, body: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size) });
  };
  private readonly onGone = (): void => this.done({ ok: false, tooLarge: false });

  constructor(
    private readonly req: IncomingMessage,
    private readonly resolve: (read: BodyRead) => void,
  ) {
    req.on("data", this.onData).on("end", this.onEnd).on("error", this.onGone).on("close", this.onGone);
  }

  private done(result: BodyRead): void {
    this.req.off("data", this.onData).off("end", this.onEnd).off("error", this.onGone).off("close", this.onGone);
    if (!result.ok) this.req.pause();
    this.resolve(result);
  }
}

/**
 * Reads a POST body with the handler's cap; `ok: false` when it is too large or the client went
 * away first. A declared `Content-Length` over the cap is refused before a byte is read, as the
 * handler does: a 10 GiB declaration is answered at once, not when the body timeout fires.
 */
function readBody(req: IncomingMessage): Promise<BodyRead> {
  if (Number(req.headers["content-length"] ?? NaN) > MAX_BODY_BYTES) return Promise.resolve({ ok: false, tooLarge: true });
  return new Promise((resolve) => new BodyReader(req, resolve));
}

/** Answers 413 now and discards what the client still uploads, up to `MAX_DISCARDED_BYTES`. */
function tooLarge(req: IncomingMessage, res: ServerResponse): void {
  let left = MAX_DISCARDED_BYTES;
  req.on("data", (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) req.socket.destroy();
  });
  req.resume();
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Request body over ${MAX_BODY_BYTES} bytes (maxMessageBytes)` } });
  res.writeHead(413, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }).end(body);
}

/** Starts the everything server on `http://<host>:<port>/mcp`. */
export async function startHttpServer(options: HttpOptions): Promise<RunningHttpServer> {
  const closer = createStreamCloser();
  // `ctx.session.id` is the Mcp-Session-Id: the closer finds the call's HTTP response by it.
  const closeStream: CloseStream = (ctx) => closer.close(ctx.session.id, ctx.requestId);
  const everything = createEverythingServer({ ...options, closeStream });
  const handler = createNodeHttpHandler({
    connect: (transport, context) => everything.server.connect(transport, context.sessionId === undefined ? {} : { sessionId: context.sessionId }),
    path: "/mcp",
    responseMode: "sse",
    maxMessageBytes: MAX_BODY_BYTES,
    eventStore: createMemoryEventStore(),
    ...corsSettings(options.cors),
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== "POST") return handler(req, res);
    void readBody(req).then((read) => {
      if (!read.ok) {
        if (read.tooLarge) tooLarge(req, res);
        else res.destroy();
        return;
      }
      closer.track(req, res, read.body);
      // a body read upstream is handed to the handler as is (as a framework's body)
      handler(req, res, read.body);
    });
  };
  const http: NodeServer = createNodeHttpServer(listener);
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const { port } = http.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    port,
    async close() {
      await handler.close();
      await everything.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}
