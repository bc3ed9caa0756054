/**
 * Test fixtures (not part of the package surface): the official SDK's Streamable HTTP and
 * legacy SSE servers on node:http, 127.0.0.1, port 0, with a few tools that exercise the
 * transport (notifications before the result, an early-closed stream, a session that can be
 * expired on demand).
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A running fixture server. */
export interface FixtureServer {
  readonly url: URL;
  /** Every request the server saw: method, path and the headers that matter. */
  readonly seen: { method: string; path: string; headers: IncomingMessage["headers"] }[];
  /** Forgets every session, so the next request carrying one is answered 404. */
  expireSessions(): void;
  close(): Promise<void>;
}

/** Options of `startSdkStreamableServer`. */
export interface SdkServerOptions {
  readonly stateless?: boolean;
  readonly json?: boolean;
  /** Store events and send `retry` (ms): enables resumption and the `close-stream` tool. */
  readonly resumable?: { readonly retryMs: number };
  /** When the `count` tool stops (checked before each notification). Default: after 300. */
  readonly countUntil?: () => boolean;
}

/**
 * An event store for the SDK server with ordered ids (`<stream>:<sequence>`). The SDK's
 * example InMemoryEventStore orders replays by `<stream>_<ms>_<random>` ids, so events of
 * the same millisecond can replay out of order; resumption tests need a correct store.
 */
function orderedEventStore(): EventStore {
  const events: { stream: string; id: string; message: JSONRPCMessage }[] = [];
  let sequence = 0;
  return {
    async storeEvent(stream, message) {
      const id = `${stream}:${++sequence}`;
      events.push({ stream, id, message });
      return id;
    },
    async getStreamIdForEventId(id) {
      return events.find((event) => event.id === id)?.stream;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const at = events.findIndex((event) => event.id === lastEventId);
      const stream = events[at]?.stream ?? "";
      // Index-based, so events stored while the replay runs are replayed too.
      for (let i = at + 1; i < events.length; i++) {
        const event = events[i];
        if (event?.stream === stream) await send(event.id, event.message);
      }
      return stream;
    },
  };
}

function buildServer(options: SdkServerOptions = {}): McpServer {
  const server = new McpServer({ name: "sdk-fixture", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool("hello", { description: "Says hello" }, async () => ({ content: [{ type: "text", text: "hello" }] }));
  server.registerTool("chatty", { description: "Logs three messages, then answers" }, async (extra) => {
    for (let i = 1; i <= 3; i++) {
      await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: `step ${i}` } });
    }
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("close-stream", { description: "Logs, closes its SSE stream, logs again, answers" }, async (extra) => {
    await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: "before close" } });
    extra.closeSSEStream?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: "after close" } });
    return { content: [{ type: "text", text: "resumed" }] };
  });
  server.registerTool("count", { description: "Logs 0, 1, 2... a millisecond apart until told to stop, then answers with the count" }, async (extra) => {
    let i = 0;
    for (; i < 100_000 && !(options.countUntil?.() ?? i >= 300); i++) {
      await extra.sendNotification({ method: "notifications/message", params: { level: "info", data: i } });
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    return { content: [{ type: "text", text: String(i) }] };
  });
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function isInitialize(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { method?: unknown }).method === "initialize";
}

function listen(server: Server): Promise<URL> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve(new URL(`http://127.0.0.1:${port}/mcp`));
    });
  });
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Starts the official SDK's Streamable HTTP server with an `McpServer` behind it. */
export async function startSdkStreamableServer(options: SdkServerOptions = {}): Promise<FixtureServer> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const seen: FixtureServer["seen"] = [];

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const body = req.method === "POST" ? await readJson(req) : undefined;
    if (options.stateless) {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: options.json ?? false });
      await buildServer(options).connect(transport);
      res.on("close", () => void transport.close());
      return transport.handleRequest(req, res, body);
    }
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const transport = sessions.get(sessionId);
      if (!transport) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
        return;
      }
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== "POST" || !isInitialize(body)) {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Bad Request: no session id" } }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: options.json ?? false,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      ...(options.resumable ? { eventStore: orderedEventStore(), retryInterval: options.resumable.retryMs } : {}),
    });
    await buildServer(options).connect(transport);
    return transport.handleRequest(req, res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const url = await listen(server);
  return {
    url,
    seen,
    expireSessions() {
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
    },
    async close() {
      for (const transport of sessions.values()) await transport.close();
      await stop(server);
    },
  };
}

/**
 * Starts the official SDK's legacy HTTP+SSE server (2024-11-05): GET `/mcp` opens the SSE
 * stream, messages are POSTed to `/messages?sessionId=...`; a POST to `/mcp` is answered 405,
 * as an old server that knows nothing of Streamable HTTP would.
 */
export async function startSdkLegacyServer(): Promise<FixtureServer> {
  const sessions = new Map<string, SSEServerTransport>();
  const seen: FixtureServer["seen"] = [];
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method === "GET" && path === "/mcp") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      void buildServer().connect(transport);
      return;
    }
    if (req.method === "POST" && path === "/messages") {
      const id = new URL(req.url ?? "/", "http://127.0.0.1").searchParams.get("sessionId") ?? "";
      const transport = sessions.get(id);
      if (!transport) {
        res.writeHead(404).end("unknown session");
        return;
      }
      void transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405, { allow: "GET" }).end("Method Not Allowed");
  });
  const url = await listen(server);
  return {
    url,
    seen,
    expireSessions() {
      sessions.clear();
    },
    async close() {
      for (const transport of sessions.values()) await transport.close();
      await stop(server);
    },
  };
}
