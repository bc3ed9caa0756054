/**
 * The WebSocket client transport (subprotocol `mcp`): connects with `ws`, sends a bearer
 * token from an `HttpAuth` on the upgrade request (asking it again once after a 401), and
 * then carries one JSON-RPC frame per text message. Node only.
 */
import { checkLimit, DEFAULT_MAX_MESSAGE_BYTES, resolveLimits } from "@proto/jsonrpc";
import type { Transport, TransportSink } from "@proto/jsonrpc";
import type { WebSocket } from "ws";
import type { IncomingMessage } from "node:http";
import type { HttpAuth } from "../client/http-auth";
import { assertBearerToken } from "../client/http-auth";
import { HttpClientError, HttpClientFaultCode } from "../client/http-error";
import type { WebSocketLimits } from "./ws-transport";
import { MCP_SUBPROTOCOL, wrapWebSocket } from "./ws-transport";
import { loadWs } from "./load-ws";

/** Options of `createWebSocketClientTransport`. */
export interface WebSocketClientOptions extends WebSocketLimits {
  /** Bearer tokens for the upgrade request; asked again once after a 401. */
  readonly auth?: HttpAuth;
  /** Extra headers on the upgrade request. */
  readonly headers?: { readonly [name: string]: string };
  /** Milliseconds the opening handshake may take. Default 30,000. */
  readonly handshakeTimeoutMs?: number;
}

type Opened = { readonly socket: WebSocket } | { readonly refused: IncomingMessage } | { readonly error: Error };

function open(url: URL, headers: Record<string, string>, options: WebSocketClientOptions): Promise<Opened> {
  const ws = loadWs("createWebSocketClientTransport");
  return new Promise((resolve) => {
    const socket = new ws.WebSocket(url, [MCP_SUBPROTOCOL], {
      headers,
      maxPayload: checkLimit("maxMessageBytes", options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
      handshakeTimeout: options.handshakeTimeoutMs ?? 30_000,
      perMessageDeflate: false,
    });
    const settle = (outcome: Opened): void => {
      socket.off("open", onOpen);
      socket.off("error", onError);
      socket.off("unexpected-response", onRefused);
      resolve(outcome);
    };
    const onOpen = (): void => settle({ socket });
    const onError = (error: Error): void => settle({ error });
    const onRefused = (_request: unknown, response: IncomingMessage): void => {
      response.resume();
      socket.terminate();
      settle({ refused: response });
    };
    socket.on("open", onOpen);
    socket.on("error", onError);
    socket.on("unexpected-response", onRefused);
    // Errors after `settle` (a late failure of a refused socket) must not go unhandled.
    socket.on("error", () => undefined);
  });
}

async function headersFor(options: WebSocketClientOptions): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...options.headers };
  try {
    const token = await options.auth?.token();
    if (token !== undefined) {
      assertBearerToken(token, "The auth provider");
      headers.authorization = `Bearer ${token}`;
    }
  } catch (cause) {
    throw new HttpClientError(HttpClientFaultCode.Auth, `The auth provider failed to supply a token: ${(cause as Error).message}`, { cause });
  }
  return headers;
}

async function connect(url: URL, options: WebSocketClientOptions): Promise<WebSocket> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await open(url, await headersFor(options), options);
    if ("socket" in outcome) return outcome.socket;
    if ("error" in outcome) {
      throw new HttpClientError(HttpClientFaultCode.Network, `WebSocket ${url.href} failed to open: ${outcome.error.message}`, { cause: outcome.error });
    }
    const status = outcome.refused.statusCode ?? 0;
    const challenge = outcome.refused.headers["www-authenticate"];
    if (status === 401 && attempt === 0 && options.auth && (await options.auth.unauthorized({ status: 401, challenge, url }))) continue;
    throw new HttpClientError(HttpClientFaultCode.HttpStatus, `WebSocket ${url.href} was refused with HTTP ${status}${status === 401 ? ": pass an `auth` provider" : ""}`, {
      status,
    });
  }
}

/**
 * Creates a WebSocket client transport for `url` (`ws:` or `wss:`). `start` opens the
 * connection (offering subprotocol `mcp`) and rejects with an `HttpClientError` when it
 * cannot. The transport owns the socket; `close()` closes it.
 */
export function createWebSocketClientTransport(url: string | URL, options: WebSocketClientOptions = {}): Transport {
  const target = new URL(url);
  if (target.protocol !== "ws:" && target.protocol !== "wss:") {
    throw new TypeError(`createWebSocketClientTransport needs a ws: or wss: URL, got ${target.protocol}`);
  }
  loadWs("createWebSocketClientTransport");
  resolveLimits(options); // a bad limit throws now, not at start()
  let inner: Transport | undefined;
  let started = false;
  let closed = false;
  return {
    async start(sink: TransportSink) {
      if (started) throw new TypeError("start() called twice: a transport has exactly one sink");
      started = true;
      const socket = await connect(target, options);
      inner = wrapWebSocket(socket, { transport: "websocket" }, options);
      await inner.start(sink);
      if (closed) await inner.close();
    },
    async send(payload) {
      if (!inner) throw new TypeError("send() before start() resolved: the WebSocket is not open yet");
      await inner.send(payload);
    },
    async close(reason) {
      closed = true;
      await inner?.close(reason);
    },
  };
}
