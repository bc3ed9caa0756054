/**
 * `createPeer`: a bidirectional JSON-RPC 2.0 endpoint composed around one `Transport`
 * (DESIGN.md section 2). Inbound requests go to handlers by method, outbound requests are
 * correlated by id; batches (section 6) are answered with one array.
 */
import type { Logger, NotifyOptions, Peer, PeerOptions, RequestOptions } from "./peer-types";
import type { Exchange, Transport, TransportSink } from "./transport";
import type { JsonRpcParams, JsonRpcPayload } from "./types";
import type { CallHost } from "./peer-call";
import { createInbound } from "./peer-inbound";
import { createOutbound } from "./peer-outbound";
import { createRouter } from "./peer-router";
import { createSignalWatch } from "./peer-watch";
import { JsonRpcFaultCode, RequestError, type TransportError } from "./errors";
import { checkNonNegativeInteger, DEFAULT_REQUEST_TIMEOUT_MS } from "./limits";

const SILENT: Logger = { warn() {}, error() {} };

/**
 * Creates a peer over `transport`. The peer owns the transport once `start` is called:
 * `close` closes it, and the transport closing (either side) closes the peer. Register
 * handlers, then call `start`.
 */
export function createPeer(transport: Transport, options: PeerOptions = {}): Peer {
  const logger = options.logger ?? SILENT;
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  checkNonNegativeInteger("requestTimeoutMs", timeoutMs);
  let started = false;
  let isClosed = false;
  let resolveClosed: (reason: Error | undefined) => void = () => {};
  const closed = new Promise<Error | undefined>((resolve) => (resolveClosed = resolve));
  const closedNow = (): boolean => isClosed;

  const send = (payload: JsonRpcPayload, via: Exchange | undefined): Promise<void> => {
    try {
      return via === undefined ? transport.send(payload) : via.reply(payload);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const outbound = createOutbound(send, closedNow, timeoutMs, logger, options.cancellation);
  const watch = createSignalWatch();
  const host: CallHost = {
    notify: (method, params, notifyOptions) => notify(method, params, notifyOptions),
    request: (method, params, requestOptions) => outbound.request(method, params, requestOptions),
    watch: watch.add,
    unwatch: watch.remove,
  };
  const inbound = createInbound(host, logger, options.cancellation, closedNow);
  const route = createRouter(inbound, outbound, logger);

  function notify(method: string, params?: JsonRpcParams, notifyOptions?: NotifyOptions): Promise<void> {
    if (typeof method !== "string") throw new TypeError("notify(method): method must be a string");
    if (isClosed) return Promise.reject(new RequestError(JsonRpcFaultCode.Closed, method, `Cannot send "${method}": the peer is closed`));
    return send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, notifyOptions?.via);
  }

  function teardown(reason: Error | undefined): void {
    if (isClosed) return;
    isClosed = true;
    outbound.closeAll(reason);
    inbound.abortAll(reason);
    resolveClosed(reason);
  }

  const sink: TransportSink = {
    payload(payload, exchange) {
      if (!isClosed) route(payload, exchange);
      else exchange.finish?.(); // a frame that arrives after close is dropped: nothing is owed
    },
    error(error: TransportError) {
      logger.warn(`${error.code}: ${error.message}`, error);
      if (error.responseId !== undefined) outbound.dropped(error.responseId, error);
    },
    closed: teardown,
  };

  return {
    handle: inbound.handle,
    handleNotification: inbound.handleNotification,
    request: (method: string, params?: JsonRpcParams, requestOptions?: RequestOptions) => outbound.request(method, params, requestOptions),
    notify,
    async start() {
      if (started) throw new TypeError("start() was already called; a peer starts once");
      if (isClosed) throw new TypeError("start() was called after close(); create a new peer");
      started = true;
      await transport.start(sink);
    },
    async close(reason?: Error) {
      teardown(reason);
      await transport.close(reason);
    },
    closed,
  };
}
