/**
 * A `Transport` over one open `ws` WebSocket, shared by the client and server sides: each
 * text message is one JSON-RPC frame (decoded with the jsonrpc codec and handed over with
 * `deliverFrame`); binary messages are refused; ping/pong keep-alive terminates a dead peer.
 */
import type { Exchange, ExchangeInfo, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { JsonRpcFaultCode, TransportError, decode, deliverFrame, encode, resolveLimits } from "@proto/jsonrpc";
import type { RawData, WebSocket } from "ws";
import { startKeepAlive } from "./keepalive";

/** Limits and keep-alive of a WebSocket transport. */
export interface WebSocketLimits {
  /** Largest accepted message in bytes; a larger one closes the connection with 1009. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest accepted JSON nesting. Default 64. */
  readonly maxDepth?: number;
  /** Most messages accepted in one batch. Default 100. */
  readonly maxBatch?: number;
  /** Milliseconds between pings; a peer that misses one is terminated. 0 disables. Default 30,000. */
  readonly pingIntervalMs?: number;
  /** Most bytes queued for a peer that does not read; a send beyond it fails with `WRITE_FAILED`. Default 16 MiB. */
  readonly maxBufferedBytes?: number;
}

/** Messages held before `start` is called; more closes the connection. */
const MAX_EARLY_MESSAGES = 100;
/** How long `close()` waits for the closing handshake before it terminates the socket. */
const CLOSE_WAIT_MS = 5_000;

/** The WebSocket subprotocol of MCP. */
export const MCP_SUBPROTOCOL = "mcp";

function closeReason(code: number, reason: Buffer, fault: Error | undefined): Error | undefined {
  if (fault) return fault;
  if (code === 1000 || code === 1001 || code === 1005) return undefined;
  const text = reason.toString("utf8");
  const meaning = code === 1009 ? " (message too big)" : code === 1006 ? " (connection lost without a close frame)" : "";
  return new TransportError(code === 1009 ? JsonRpcFaultCode.Oversized : JsonRpcFaultCode.Closed, `The WebSocket closed with code ${code}${meaning}${text ? `: ${text}` : ""}`);
}

/** A socket error as a close reason with a stable code: `OVERSIZED` for a message over the limit, else `CLOSED` (the `ws` error is the cause). */
function describeSocketError(error: Error & { code?: string }, maxMessageBytes: number): TransportError {
  if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
    return new TransportError(JsonRpcFaultCode.Oversized, `The peer sent a message larger than maxMessageBytes (${maxMessageBytes} bytes); the connection was closed with 1009`, { cause: error });
  }
  return new TransportError(JsonRpcFaultCode.Closed, `The WebSocket failed: ${error.message}`, { cause: error });
}

/**
 * Wraps an open (or opening) WebSocket. Listeners attach at once, so no message is lost
 * before `start`. The transport owns the socket: `close()` closes it (1000), and the socket
 * closing from either side calls `sink.closed` once, with a reason unless it closed normally.
 */
export function wrapWebSocket(socket: WebSocket, info: ExchangeInfo, limits: WebSocketLimits = {}): Transport {
  const decodeLimits = resolveLimits(limits);
  const maxMessageBytes = decodeLimits.maxMessageBytes;
  const maxBufferedBytes = limits.maxBufferedBytes ?? 16 * 1024 * 1024;
  const lifetime = new AbortController();
  const early: { data: RawData; isBinary: boolean }[] = [];
  let sink: TransportSink | undefined;
  let fault: Error | undefined;
  let finished = false;
  const exchange: Exchange = { reply: (payload) => write(payload), signal: lifetime.signal, info };

  function receive(data: RawData, isBinary: boolean): void {
    if (!sink) {
      if (early.length >= MAX_EARLY_MESSAGES) socket.close(1008, "transport not started");
      else early.push({ data, isBinary });
      return;
    }
    if (isBinary) {
      sink.error(new TransportError(JsonRpcFaultCode.BadFrame, "Refused a binary WebSocket message: MCP sends each JSON-RPC message as one text message"));
      return;
    }
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
    deliverFrame(decode(bytes, decodeLimits), sink, exchange);
  }

  function finish(code: number, reason: Buffer): void {
    if (finished) return;
    finished = true;
    stopKeepAlive();
    lifetime.abort();
    sink?.closed(closeReason(code, reason, fault));
  }

  const stopKeepAlive = startKeepAlive(socket, limits.pingIntervalMs ?? 30_000, () => {
    fault = new TransportError(JsonRpcFaultCode.Timeout, `The peer did not answer a ping within ${limits.pingIntervalMs ?? 30_000} ms: connection terminated`);
    socket.terminate();
  });
  socket.on("message", receive);
  socket.on("error", (error: Error & { code?: string }) => {
    fault ??= describeSocketError(error, maxMessageBytes);
  });
  socket.on("close", finish);

  function write(payload: JsonRpcPayload): Promise<void> {
    if (finished || socket.readyState !== socket.OPEN) {
      return Promise.reject(new TransportError(JsonRpcFaultCode.Closed, "The WebSocket is closed: nothing can be sent on it"));
    }
    if (socket.bufferedAmount > maxBufferedBytes) {
      return Promise.reject(
        new TransportError(
          JsonRpcFaultCode.WriteFailed,
          `The peer is not reading: ${socket.bufferedAmount} bytes are queued (maxBufferedBytes ${maxBufferedBytes}); the message was not sent`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      socket.send(encode(payload), (error) => {
        if (error) reject(new TransportError(JsonRpcFaultCode.WriteFailed, `A WebSocket write failed: ${error.message}`, { cause: error }));
        else resolve();
      });
    });
  }

  return {
    async start(s) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      sink = s;
      for (const held of early.splice(0)) receive(held.data, held.isBinary);
      if (finished) s.closed(fault);
    },
    send: write,
    async close(reason) {
      if (finished) return;
      fault ??= reason;
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      const timer = setTimeout(() => socket.terminate(), CLOSE_WAIT_MS);
      socket.close(1000);
      await closed;
      clearTimeout(timer);
    },
  };
}
