/**
 * Test fixture (not part of the package surface): a node:http server on 127.0.0.1, port 0,
 * whose handler the test writes, for the cases no real server produces on demand.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A running scripted server. */
export interface ScriptedServer {
  readonly url: URL;
  close(): Promise<void>;
}

/** Reads a request body as text. */
export async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Starts a server that runs `handler` for every request (a throw answers 500). */
export async function startScripted(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<ScriptedServer> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an SSE answer: status 200 with the event-stream content type. */
export function openSse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
  res.flushHeaders();
}

/** Writes one SSE event. */
export function writeEvent(res: ServerResponse, event: { id?: string; event?: string; data: string; retry?: number }): void {
  let text = "";
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  for (const line of event.data.split("\n")) text += `data: ${line}\n`;
  res.write(`${text}\n`);
}
