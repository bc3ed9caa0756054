/**
 * A linked pair: one end speaks the official SDK's `Transport` (start/send/close and
 * assignable callbacks, the SDK's style, not ours), the other end is a @proto `Transport`.
 * Every message crosses as JSON text through our codec, as it would on a wire, so the
 * official SDK's Client or McpServer can be tested against our server or client in memory.
 */
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { decode, deliverFrame, encode } from "@proto/jsonrpc";
import type { Exchange, ExchangeInfo, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";

/** Options of `createSdkBridge`. */
export interface SdkBridgeOptions {
  /** What our side reports for each inbound frame (principal, session id). Default `{ transport: "memory" }`. */
  readonly info?: ExchangeInfo;
}

/** The two ends of the bridge. */
export interface SdkBridge {
  /** Give this to the official SDK (`client.connect(bridge.sdk)` or `server.connect(bridge.sdk)`). */
  readonly sdk: SdkTransport;
  /** Give this to our packages (`server.connect(bridge.ours)`, `connect(bridge.ours)`). */
  readonly ours: Transport;
}

/** Creates a linked SDK/@proto transport pair. Closing either end closes both. */
export function createSdkBridge(options: SdkBridgeOptions = {}): SdkBridge {
  const info: ExchangeInfo = options.info ?? { transport: "memory" };
  let sink: TransportSink | undefined;
  let closed = false;
  const aborter = new AbortController();

  const sdk: SdkTransport = {
    async start() {},
    async send(message: JSONRPCMessage) {
      if (closed) throw new Error("bridge closed");
      const text = JSON.stringify(message);
      queueMicrotask(() => {
        if (closed || !sink) return;
        deliverFrame(decode(text), sink, exchange);
      });
    },
    async close() {
      await shutdown();
    },
  };

  function toSdk(payload: JsonRpcPayload): void {
    if (closed) throw new Error("bridge closed");
    const text = encode(payload);
    queueMicrotask(() => {
      if (closed) return;
      const parsed = JSON.parse(text) as JSONRPCMessage | JSONRPCMessage[];
      for (const message of Array.isArray(parsed) ? parsed : [parsed]) sdk.onmessage?.(message);
    });
  }

  const exchange: Exchange = {
    async reply(payload) {
      toSdk(payload);
    },
    signal: aborter.signal,
    info,
  };

  async function shutdown(reason?: Error): Promise<void> {
    if (closed) return;
    closed = true;
    aborter.abort(reason ?? new Error("bridge closed"));
    queueMicrotask(() => {
      sink?.closed(reason);
      sdk.onclose?.();
    });
  }

  const ours: Transport = {
    async start(s) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      sink = s;
    },
    async send(payload) {
      toSdk(payload);
    },
    close: shutdown,
  };

  return { sdk, ours };
}
