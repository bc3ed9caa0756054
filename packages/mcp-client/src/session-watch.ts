/**
 * Notices when the transport starts a new server-side session on its own (Streamable HTTP
 * re-initializes after the server lost the session), from the session id it reports with
 * each inbound frame, so the client can restore what the server forgot.
 */
import type { Transport } from "@proto/jsonrpc";

/**
 * Watches the session id the transport reports with each inbound frame (`ExchangeInfo.sessionId`):
 * once it changes, the server is holding a new session for us, and `renewed` runs before the frame
 * is delivered (so a re-sent request's answer finds the restored state and empty caches).
 */
export function watchSessionId(transport: Transport, renewed: () => void): Transport {
  let current: string | undefined;
  return {
    start: (sink) => transport.start({
      payload(payload, exchange) {
        const id = exchange.info.sessionId;
        if (id !== undefined && id !== current) {
          const changed = current !== undefined;
          current = id;
          if (changed) renewed();
        }
        sink.payload(payload, exchange);
      },
      error: (error) => sink.error(error),
      closed: (reason) => sink.closed(reason),
    }),
    send: (payload) => transport.send(payload),
    close: (reason) => transport.close(reason),
  };
}
