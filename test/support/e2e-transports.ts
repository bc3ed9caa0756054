/**
 * The transports of the end-to-end table (test/e2e/transports.test.ts): each row starts the
 * scenario server behind one transport (in-process, or a child process for stdio) and hands
 * back the client end for `@proto/mcp-client`. What a transport cannot carry is stated per
 * row, so the shared scenario asserts the right outcome instead of skipping.
 */
import type { AddressInfo } from "node:net";
import type { Server as HttpServer } from "node:http";
import { createServer as createHttpServer } from "node:http";
import { fileURLToPath } from "node:url";
import type { Transport } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createMemoryEventStore, createStreamableHttpClientTransport, type ResponseMode } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer, createWebSocketClientTransport, createWebSocketServer } from "@proto/transport-http/node";
import { createStdioClientTransport } from "@proto/transport-stdio/node";
import { createScenarioServer } from "./scenario-server";

/** The repository root (child fixtures run from there so tsx honours the tsconfig paths). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A started row: the client end and how to stop the server side. */
export interface E2eConnection {
  /** The client end; the client that connects it owns and closes it. */
  readonly transport: Transport;
  /** Stops the server side (HTTP listener, WebSocket acceptor, server sessions). */
  stop(): Promise<void>;
  /** How many times the client resumed a cut stream, where the row cuts them on purpose. */
  resumptions?(): number;
}

/** One row of the transport table. */
export interface E2eTransportCase {
  readonly name: string;
  /** Requests the server makes during a call (sampling, elicitation) reach this client and come back. */
  readonly serverRequests: boolean;
  /**
   * Notifications related to a call (progress, logs): `ordered` before its response, on the same
   * stream; `eventual` on another stream (JSON-only HTTP: the standalone GET stream), so they may
   * come after the response; `none`: they are dropped (stateless JSON-only HTTP).
   */
  readonly notifications: "ordered" | "eventual" | "none";
  /** `notifications/cancelled` reaches the handler of the call it names. */
  readonly cancellation: boolean;
  /** `logging/setLevel` binds later calls (false when each request is its own session). */
  readonly sessionState: boolean;
  /** The server cuts SSE connections on purpose; the connection's `resumptions()` counts the client's resumptions. */
  readonly cutsStreams?: boolean;
  open(): Promise<E2eConnection>;
}

/** Listens on 127.0.0.1, port 0, and resolves with the port. */
export function listenLoopback(server: HttpServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closes a node:http server, ending keep-alive and streaming connections first. */
export function closeHttp(server: HttpServer): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function memory(): E2eTransportCase {
  return {
    name: "in-memory",
    serverRequests: true,
    notifications: "ordered",
    cancellation: true,
    sessionState: true,
    async open() {
      const { server } = createScenarioServer("scenario-memory");
      const [clientEnd, serverEnd] = createMemoryTransportPair();
      await server.connect(serverEnd);
      return { transport: clientEnd, stop: () => server.close() };
    },
  };
}

function stdio(): E2eTransportCase {
  const fixture = fileURLToPath(new URL("../e2e/fixtures/scenario-stdio.ts", import.meta.url));
  return {
    name: "stdio (child process)",
    serverRequests: true,
    notifications: "ordered",
    cancellation: true,
    sessionState: true,
    async open() {
      const transport = createStdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", fixture],
        cwd: REPO_ROOT,
        env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` },
      });
      return { transport, stop: async () => {} };
    },
  };
}

function http(stateless: boolean, responseMode: ResponseMode): E2eTransportCase {
  return {
    name: `Streamable HTTP ${stateless ? "stateless" : "stateful"}, ${responseMode} answers`,
    // A stateless POST is its own session: the client's answer to a server request, or its
    // cancellation, arrives on another POST and reaches another transport.
    serverRequests: !stateless,
    notifications: responseMode === "json" ? (stateless ? "none" : "eventual") : "ordered",
    cancellation: !stateless,
    sessionState: !stateless,
    async open() {
      const { server } = createScenarioServer(`scenario-http-${stateless ? "stateless" : "stateful"}-${responseMode}`);
      const handler = createNodeHttpHandler({
        stateless,
        responseMode,
        connect: (transport, context) => server.connect(transport, stateless && !context.initialize ? { initialized: {} } : {}),
      });
      const listener = createNodeHttpServer(handler);
      const port = await listenLoopback(listener);
      const transport = createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`);
      return {
        transport,
        stop: async () => {
          await closeHttp(listener);
          await server.close();
        },
      };
    },
  };
}

/**
 * SSE polling: every SSE connection is cut `cutMs` after it opens (with a `retry` field first),
 * so every call longer than that is finished over resumed streams (`Last-Event-ID`, replayed
 * from the event store).
 */
function httpPolling(cutMs: number): E2eTransportCase {
  return {
    name: `Streamable HTTP stateful, SSE polling (connections cut after ${cutMs} ms, resumed with Last-Event-ID)`,
    cutsStreams: true,
    serverRequests: true,
    notifications: "ordered",
    cancellation: true,
    sessionState: true,
    async open() {
      const { server } = createScenarioServer("scenario-http-polling");
      const handler = createNodeHttpHandler({
        responseMode: "sse",
        eventStore: createMemoryEventStore(),
        closeSseAfterMs: cutMs,
        retryMs: 5,
        connect: (transport) => server.connect(transport),
      });
      const listener = createNodeHttpServer(handler);
      const port = await listenLoopback(listener);
      let resumed = 0;
      const transport = createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, {
        onEvent: (event) => void (event.type === "reconnecting" && resumed++),
      });
      return {
        transport,
        resumptions: () => resumed,
        stop: async () => {
          await closeHttp(listener);
          await server.close();
        },
      };
    },
  };
}

function websocket(): E2eTransportCase {
  return {
    name: "WebSocket",
    serverRequests: true,
    notifications: "ordered",
    cancellation: true,
    sessionState: true,
    async open() {
      const { server } = createScenarioServer("scenario-ws");
      const listener = createHttpServer((_req, res) => res.writeHead(426).end());
      const acceptor = createWebSocketServer({ server: listener, path: "/mcp", connect: (transport) => server.connect(transport) });
      const port = await listenLoopback(listener);
      const transport = createWebSocketClientTransport(`ws://127.0.0.1:${port}/mcp`);
      return {
        transport,
        stop: async () => {
          await acceptor.close();
          await closeHttp(listener);
          await server.close();
        },
      };
    },
  };
}

/** Every transport row: in-memory, stdio, Streamable HTTP (stateful and stateless, JSON, SSE and auto answers, SSE polling), WebSocket. */
export function e2eTransportCases(): readonly E2eTransportCase[] {
  return [
    memory(),
    stdio(),
    http(false, "sse"),
    http(false, "json"),
    http(false, "auto"),
    http(true, "sse"),
    http(true, "json"),
    httpPolling(20),
    websocket(),
  ];
}
