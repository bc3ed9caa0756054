/**
 * Test fixture (not part of the package surface): our handler on a real socket (127.0.0.1,
 * port 0), raw HTTP requests that can set any Host header, and an SSE reader for fetch bodies.
 */
import { request as httpRequest } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createParser } from "eventsource-parser";
import type { EventSourceMessage } from "eventsource-parser";
import { createNodeHttpHandler, createNodeHttpServer } from "../node-adapter";
import type { NodeHttpHandler, NodeHttpHandlerOptions, NodeServerLimits } from "../node-adapter";

/** A running server. */
export interface Running {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  readonly handler: NodeHttpHandler;
  close(): Promise<void>;
}

/** Serves `createNodeHttpHandler(options)` on 127.0.0.1, port 0, at /mcp. */
export async function serve(options: NodeHttpHandlerOptions, limits?: NodeServerLimits): Promise<Running> {
  const handler = createNodeHttpHandler(options);
  const server = createNodeHttpServer(handler, limits);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    server,
    handler,
    async close() {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The answer of `raw`. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** One HTTP request with exactly the headers given (Host included), read to the end. */
export function raw(port: number, init: { method: string; path?: string; headers: Record<string, string>; body?: string }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, method: init.method, path: init.path ?? "/mcp", headers: init.headers, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(init.body);
  });
}

/** Default headers of a client POST. */
export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" } as const;

/** A JSON-RPC request body. */
export function rpc(id: number | string, method: string, params?: unknown): string {
  return JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}

/** The body of an `initialize` request. */
export function initBody(id: number | string = 0, protocolVersion = "2025-11-25"): string {
  return rpc(id, "initialize", { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "1" } });
}

/** Reads SSE events from a fetch response until `until` returns true or the stream ends. */
export async function readEvents(response: Response, until: (event: EventSourceMessage, all: EventSourceMessage[]) => boolean = () => false): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  let stop = false;
  const parser = createParser({
    onEvent(event) {
      if (stop) return;
      events.push(event);
      if (until(event, events)) stop = true;
    },
  });
  const body = response.body;
  if (!body) return events;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  while (!stop) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  if (stop) await reader.cancel().catch(() => undefined);
  return events;
}

/** Initializes a session on `url` and returns its id. */
export async function initialize(url: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: initBody() });
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  await response.text();
  const id = response.headers.get("mcp-session-id");
  if (!id) throw new Error("initialize returned no session id");
  return id;
}
