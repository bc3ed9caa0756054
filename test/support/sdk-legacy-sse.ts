/**
 * Hosts the official SDK's legacy HTTP+SSE server transport (protocol 2024-11-05:
 * `GET /mcp` opens the event stream, whose `endpoint` event names `POST /messages?sessionId=...`)
 * on 127.0.0.1, port 0. A POST to `/mcp` is answered 405, which is what makes a Streamable HTTP
 * client fall back to this transport (spec 2025-11-25, basic/transports, "Backwards Compatibility").
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { closeHttp, listenLoopback } from "./e2e-transports";
import type { SdkScenario } from "./sdk-scenario-server";
import type { SdkHttpServer } from "./sdk-http";

/** Starts the SDK scenario behind the SDK's legacy SSE transport; `url` is the SSE endpoint. */
export async function startSdkLegacySseServer(scenario: SdkScenario): Promise<SdkHttpServer> {
  const sessions = new Map<string, SSEServerTransport>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (req.method === "GET" && url.pathname === "/mcp") {
      const transport = new SSEServerTransport("/messages", res);
      sessions.set(transport.sessionId, transport);
      res.on("close", () => sessions.delete(transport.sessionId));
      await scenario.create().connect(transport);
      return;
    }
    if (req.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId") ?? "");
      if (transport === undefined) {
        res.writeHead(404).end("unknown session");
        return;
      }
      await transport.handlePostMessage(req, res);
      return;
    }
    res.writeHead(405, { allow: "GET" }).end("use GET /mcp (legacy HTTP+SSE)");
  }

  const listener = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  const port = await listenLoopback(listener);
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await closeHttp(listener);
    },
  };
}
