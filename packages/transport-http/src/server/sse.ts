/**
 * Server-Sent Events encoding (WHATWG HTML, "server-sent events"), the framing of every
 * Streamable HTTP stream. Data is a JSON-RPC payload encoded as one line: `JSON.stringify`
 * never emits a raw line break.
 */

/** A comment line that keeps proxies and clients from timing out an idle stream. */
export const SSE_KEEP_ALIVE = ": keep-alive\n\n";

/** True when `id` may travel in an SSE `id:` field (no line breaks, no NUL). */
export function isValidEventId(id: string): boolean {
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0) return false;
  }
  return true;
}

/** One `message` event carrying `data` (a single line), with an optional event id. */
export function sseMessage(data: string, id?: string): string {
  return id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`;
}

/**
 * The priming event (MCP 2025-11-25 transports, "Sending Messages to the Server" 6): an event id
 * and empty data, so the client can resume from it; `retryMs` tells it how long to wait first.
 */
export function ssePriming(id: string, retryMs?: number): string {
  return retryMs === undefined ? `id: ${id}\ndata: \n\n` : `id: ${id}\nretry: ${retryMs}\ndata: \n\n`;
}

/** A bare `retry` field, sent before the server closes a connection it wants the client to reopen. */
export function sseRetry(retryMs: number): string {
  return `retry: ${retryMs}\n\n`;
}
