/**
 * Test fixture (not part of the package surface): a minimal scripted Streamable HTTP
 * server. It answers `initialize` with JSON and a session id, `notifications/initialized`
 * and other notifications/responses with 202, DELETE with 200, and hands GETs and other
 * requests to the test, so each test scripts exactly the wire behaviour it needs.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { bodyOf, startScripted } from "./http-fixture";
import type { ScriptedServer } from "./http-fixture";

/** One request the scripted server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

/** Handlers of a scripted server. */
export interface ScriptedMcpHandlers {
  /** A GET; default 405. */
  get?(req: IncomingMessage, res: ServerResponse, count: number): void | Promise<void>;
  /** A POST carrying a request other than `initialize`; default: `{ ok: true }` as JSON. */
  call?(message: { id: number | string; method: string }, res: ServerResponse, req: IncomingMessage): void | Promise<void>;
  /** Refuses a request before anything else (an auth check): return the status and headers to answer with. */
  refuse?(req: IncomingMessage): { status: number; headers?: Record<string, string> } | undefined;
  /** The session id issued on `initialize`. Default "s-1". */
  readonly sessionId?: string;
}

/** A scripted server and what it saw. */
export interface ScriptedMcp extends ScriptedServer {
  readonly seen: SeenRequest[];
}

/** Writes a JSON-RPC result as a JSON answer. */
export function answerJson(res: ServerResponse, id: number | string, result: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id, result }));
}

/** Starts a scripted Streamable HTTP server. */
export async function startScriptedMcp(handlers: ScriptedMcpHandlers = {}): Promise<ScriptedMcp> {
  const seen: SeenRequest[] = [];
  let gets = 0;
  const server = await startScripted(async (req, res) => {
    const text = req.method === "POST" ? await bodyOf(req) : "";
    const body: unknown = text === "" ? undefined : JSON.parse(text);
    seen.push({ method: req.method ?? "", headers: req.headers, body });
    const refusal = handlers.refuse?.(req);
    if (refusal) {
      res.writeHead(refusal.status, refusal.headers).end();
      return;
    }
    if (req.method === "GET") {
      if (handlers.get) return handlers.get(req, res, ++gets);
      res.writeHead(405).end();
      return;
    }
    if (req.method === "DELETE") {
      res.writeHead(200).end();
      return;
    }
    const message = body as { id?: number | string; method?: string };
    if (message.method === "initialize" && message.id !== undefined) {
      answerJson(res, message.id, { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "scripted", version: "1" } }, {
        "mcp-session-id": handlers.sessionId ?? "s-1",
      });
      return;
    }
    if (message.id === undefined || message.method === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (handlers.call) return handlers.call({ id: message.id, method: message.method }, res, req);
    answerJson(res, message.id, { ok: true });
  });
  return { ...server, seen };
}
