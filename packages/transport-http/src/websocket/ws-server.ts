/**
 * Accepts MCP WebSocket connections on a node:http server: upgrade requests on one path,
 * with the Host/Origin rules of the Streamable HTTP handler (checked, fail-closed, on
 * loopback binds: DNS rebinding, CVE-2025-66414), subprotocol `mcp` required, an optional
 * bearer `authenticate` hook with the HTTP handler's challenges (`ws-auth.ts`), a cap on live
 * connections, and one transport per connection handed to `connect`. Node only.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { resolveLimits } from "@proto/jsonrpc";
import type { Principal, Transport } from "@proto/jsonrpc";
import { HttpFaultCode, HttpServerError } from "../server/errors";
import type { HostCheckOptions } from "../server/guards";
import { checkHostAndOrigin, wildcardBindWarning } from "../server/guards";
import type { HttpRequestLike } from "../server/io";
import type { UpgradeAuthOptions } from "./ws-auth";
import { createUpgradeAuth } from "./ws-auth";
import type { WebSocketLimits } from "./ws-transport";
import { MCP_SUBPROTOCOL, wrapWebSocket } from "./ws-transport";
import { loadWs } from "./load-ws";

/** Options of `createWebSocketServer`. */
export interface WebSocketServerOptions extends WebSocketLimits, UpgradeAuthOptions {
  /** The node:http (or https) server whose upgrades to accept. */
  readonly server: Server;
  /** Connects one new transport (one connection) to the MCP server: `(t) => server.connect(t)`. */
  connect(transport: Transport): Promise<unknown> | void;
  /** The path to accept upgrades on. Default `/mcp`. */
  readonly path?: string;
  /** Host and Origin allow-lists (defaults as for the Streamable HTTP handler). */
  readonly hostCheck?: HostCheckOptions;
  /** Most live connections; more are refused with 503. Default 1,000. */
  readonly maxConnections?: number;
}

/** A running WebSocket acceptor. */
export interface WebSocketServerHandle {
  /** Live connections. */
  readonly connections: number;
  /** Stops accepting upgrades and closes every live connection. */
  close(): Promise<void>;
}

const REASONS: { readonly [status: number]: string } = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = `${message}\n`;
  const lines = [`HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}`, "Content-Type: text/plain; charset=utf-8", `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

function offeredProtocols(request: IncomingMessage): string[] {
  return (request.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim());
}

function requestLike(request: IncomingMessage): HttpRequestLike {
  return {
    method: request.method ?? "GET",
    url: `http://${request.headers.host ?? "localhost"}${request.url ?? "/"}`,
    headers: {
      get: (name) => {
        const value = request.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
      },
    },
  };
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

/**
 * Starts accepting MCP WebSocket connections on `options.server`. The handle owns the
 * connections it accepted: `close()` closes them; each transport is also closed when its
 * peer goes away. Upgrades on other paths are left to other listeners (or refused with 404
 * when this is the only one).
 */
export function createWebSocketServer(options: WebSocketServerOptions): WebSocketServerHandle {
  const path = options.path ?? "/mcp";
  const maxConnections = options.maxConnections ?? 1_000;
  const live = new Set<Transport>();
  const authorize = createUpgradeAuth(options);
  // checked once here, so a bad limit throws now and never inside an upgrade
  const { maxMessageBytes } = resolveLimits(options);
  const wss = new (loadWs("createWebSocketServer").WebSocketServer)({
    noServer: true,
    maxPayload: maxMessageBytes,
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (protocols) => (protocols.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
  });

  async function accept(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const why = checkHostAndOrigin({ host: request.headers.host, origin: request.headers.origin, localAddress: request.socket.localAddress }, options.hostCheck ?? {}, []);
    if (why) return refuse(socket, 403, why);
    if (!offeredProtocols(request).includes(MCP_SUBPROTOCOL)) return refuse(socket, 400, "offer the WebSocket subprotocol `mcp` (Sec-WebSocket-Protocol: mcp)");
    const auth = await authorize(requestLike(request));
    if ("status" in auth) return refuse(socket, auth.status, auth.message, auth.headers);
    const principal: Principal | undefined = auth.principal;
    if (live.size >= maxConnections) return refuse(socket, 503, `too many live connections (maxConnections ${maxConnections}); retry later`);
    if (socket.destroyed) return;
    wss.handleUpgrade(request, socket, head, (ws) => {
      const info = { transport: "websocket", headers: headersOf(request), ...(principal ? { principal } : {}) };
      const transport = wrapWebSocket(ws, info, options);
      live.add(transport);
      ws.once("close", () => live.delete(transport));
      Promise.resolve()
        .then(() => options.connect(transport))
        .catch((error: unknown) => {
          options.logger?.error(`${HttpFaultCode.ConnectFailed}: connect() failed for a WebSocket connection; it was closed`, error);
          return transport.close(new HttpServerError(HttpFaultCode.ConnectFailed, "the connect option failed to connect a new WebSocket transport", { cause: error }));
        });
    });
  }

  function onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    if (pathname !== path) {
      if (options.server.listenerCount("upgrade") === 1) refuse(socket, 404, `no WebSocket endpoint at ${pathname}`);
      return;
    }
    socket.on("error", () => socket.destroy());
    accept(request, socket, head).catch(() => refuse(socket, 400, "the upgrade request could not be handled"));
  }

  options.server.on("upgrade", onUpgrade);
  const warnBind = (): void => {
    const address = options.server.address();
    const warning = typeof address === "object" && address !== null ? wildcardBindWarning(address.address, options.hostCheck ?? {}) : undefined;
    if (warning !== undefined) options.logger?.warn(warning);
  };
  if (options.server.listening) warnBind();
  else options.server.once("listening", warnBind);
  return {
    get connections() {
      return live.size;
    },
    async close() {
      options.server.off("upgrade", onUpgrade);
      options.server.off("listening", warnBind);
      await Promise.all([...live].map((transport) => transport.close()));
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
