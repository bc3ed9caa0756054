/**
 * A wire trace: wraps a `Transport` so every payload it receives and every payload sent on it
 * (`send` and each exchange's `reply`) goes to `logger.debug` as one JSON line, with secrets
 * redacted. The wrapper owns nothing: closing it closes the inner transport.
 */
import type { Logger } from "./peer-types";
import type { Exchange, Transport, TransportSink } from "./transport";
import type { JsonRpcPayload } from "./types";

/** Keys whose values a trace never shows (tokens, passwords, API keys, cookies). */
const SECRET_KEY = /token|secret|password|passwd|authorization|api[-_]?key|cookie|credential/i;

/** The JSON of `payload` with the values of secret-looking keys replaced by `"[redacted]"`. */
export function redactedJson(payload: unknown): string {
  return JSON.stringify(payload, (key, value: unknown) => (key !== "" && SECRET_KEY.test(key) && value !== null && value !== undefined ? "[redacted]" : value));
}

/**
 * Returns `transport` traced to `logger.debug` (`<- ` inbound, `-> ` outbound, prefixed by
 * `label`). A logger without `debug` gets the transport back unchanged: tracing costs nothing
 * when it is off.
 */
export function traceTransport(transport: Transport, logger: Logger, label = "jsonrpc"): Transport {
  const debug = logger.debug?.bind(logger);
  if (!debug) return transport;
  const out = (payload: JsonRpcPayload): void => debug(`${label} -> ${redactedJson(payload)}`);
  return {
    start(sink: TransportSink) {
      return transport.start({
        payload(payload, exchange: Exchange) {
          debug(`${label} <- ${redactedJson(payload)}`);
          const reply = (answer: JsonRpcPayload): Promise<void> => (out(answer), exchange.reply(answer));
          sink.payload(payload, { reply, signal: exchange.signal, info: exchange.info });
        },
        error: (error) => sink.error(error),
        closed: (reason) => sink.closed(reason),
      });
    },
    send(payload) {
      out(payload);
      return transport.send(payload);
    },
    close: (reason) => transport.close(reason),
  };
}
