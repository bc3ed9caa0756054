/**
 * Hosts the official SDK's Streamable HTTP server transport (one `McpServer` per session, or
 * per request when stateless) on a node:http server bound to 127.0.0.1, port 0, for interop
 * tests of our HTTP client against it.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { closeHttp, listenLoopback } from "./e2e-transports";
import type { SdkScenario } from "./sdk-scenario-server";

/** Options of `startSdkHttpServer`. */
export interface SdkHttpOptions {
  /** No sessions: a fresh server and transport per request. */
  readonly stateless: boolean;
  /** The SDK's `enableJsonResponse` (JSON answers instead of SSE streams). */
  readonly json: boolean;
  /**
   * How an unknown session id is answered: 404 (the spec), or 400 "Bad Request: No valid session
   * ID provided", as the SDK's example servers and the official reference server do. Default 404.
   */
  readonly unknownSession?: 400 | 404;
}

/** A running SDK HTTP server. */
export interface SdkHttpServer {
  readonly url: string;
  /** Closes every session transport and the listener. */
  stop(): Promise<void>;
}

/** A running SDK Streamable HTTP server. */
export interface SdkStreamableServer extends SdkHttpServer {
  /** Forgets every session (a restarted server): later requests with their ids are unknown. */
  forgetSessions(): Promise<void>;
}

/** Starts the SDK scenario behind the SDK's Streamable HTTP transport. */
export async function startSdkHttpServer(scenario: SdkScenario, options: SdkHttpOptions): Promise<SdkStreamableServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const all = new Set<StreamableHTTPServerTransport>();

  async function open(): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: options.stateless ? undefined : () => randomUUID(),
      enableJsonResponse: options.json,
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    all.add(transport);
    transport.onclose = () => {
      all.delete(transport);
      if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    };
    await scenario.create().connect(transport);
    return transport;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers["mcp-session-id"];
    if (options.stateless) {
      const transport = await open();
      res.on("close", () => void transport.close());
      await transport.handleRequest(req, res);
      return;
    }
    const known = typeof id === "string" ? sessions.get(id) : undefined;
    if (typeof id === "string" && known === undefined && options.unknownSession === 400) {
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "Bad Request: No valid session ID provided" }, id: null }));
      return;
    }
    if (typeof id === "string" && known === undefined) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
      return;
    }
    await (known ?? (await open())).handleRequest(req, res);
  }

  const listener = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const port = await listenLoopback(listener);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async forgetSessions() {
      const forgotten = [...sessions.values()];
      sessions.clear();
      await Promise.all(forgotten.map((t) => t.close()));
    },
    async stop() {
      await Promise.all([...all].map((t) => t.close()));
      await closeHttp(listener);
    },
  };
}
