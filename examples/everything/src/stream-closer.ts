/**
 * Closing a request's SSE connection mid-call, for `test_reconnection` (SEP-1699, MCP
 * 2025-11-25 transports "Resumability and Redelivery"): the server ends the POST's response
 * after its priming event, the client reconnects with `Last-Event-ID`, and the result,
 * written meanwhile to the event store, is replayed to it.
 *
 * The HTTP handler of @proto/transport-http has no per-request "close this stream now" call
 * (only `closeSseAfterMs`, which polls every stream), so the example does it at the HTTP
 * edge: the Node listener reads the body first (the handler accepts a pre-read body, as after
 * `express.json()`), remembers the response of a `tools/call` of the reconnection tool, and
 * ends it on request. To the handler this is a client that dropped mid-stream, which it must
 * survive anyway when it keeps an event store.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** The tool whose POST responses are tracked. */
export const RECONNECTION_TOOL = "test_reconnection";

interface Tracked {
  readonly res: ServerResponse;
  /** True once an SSE event with an id (the priming event) went out: the client can resume. False when the response ended first. */
  readonly primed: Promise<boolean>;
}

/** Remembers the responses of reconnection calls and ends them on request. */
export interface StreamCloser {
  /** Looks at a POST body read by the listener; tracks `res` when it is a reconnection call. */
  track(req: IncomingMessage, res: ServerResponse, body: Uint8Array): void;
  /**
   * Ends the SSE connection of request `requestId` of session `sessionId` once the client holds
   * an event id to resume from. Resolves false when no such connection is tracked (JSON answer,
   * stdio, already gone).
   */
  close(sessionId: string, requestId: string | number): Promise<boolean>;
}

function keyOf(sessionId: string, requestId: unknown): string {
  return `${sessionId} ${JSON.stringify(requestId)}`;
}

const TOOL_BYTES = Buffer.from(RECONNECTION_TOOL);

function reconnectionCallId(body: Uint8Array): string | number | undefined {
  // Most bodies are other calls: a byte search spares them a second JSON.parse (a name written with escapes is not tracked).
  if (Buffer.from(body.buffer, body.byteOffset, body.byteLength).indexOf(TOOL_BYTES) < 0) return undefined;
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined; // the handler answers the parse error
  }
  if (typeof message !== "object" || message === null || Array.isArray(message)) return undefined;
  const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  if (method !== "tools/call" || params?.name !== RECONNECTION_TOOL) return undefined;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}

/** Wraps `res.write` to learn when the first SSE event with an id is written (false: the response ended first). */
function watchPriming(res: ServerResponse): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    res.write = ((...args: unknown[]) => {
      const chunk = args[0];
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : "";
      if (/^id: /m.test(text)) resolve(true);
      return write(...args);
    }) as ServerResponse["write"];
    res.once("close", () => resolve(false));
    res.once("finish", () => resolve(false));
  });
}

/** Creates a closer. One per HTTP listener. */
export function createStreamCloser(): StreamCloser {
  const tracked = new Map<string, Tracked>();
  return {
    track(req, res, body) {
      const sessionId = req.headers["mcp-session-id"];
      if (typeof sessionId !== "string") return;
      const id = reconnectionCallId(body);
      if (id === undefined) return;
      const key = keyOf(sessionId, id);
      tracked.set(key, { res, primed: watchPriming(res) });
      res.once("close", () => {
        if (tracked.get(key)?.res === res) tracked.delete(key);
      });
    },
    async close(sessionId, requestId) {
      const key = keyOf(sessionId, requestId);
      const entry = tracked.get(key);
      if (entry === undefined) return false;
      tracked.delete(key);
      if (!(await entry.primed) || entry.res.writableEnded) return false;
      entry.res.end();
      return true;
    },
  };
}
