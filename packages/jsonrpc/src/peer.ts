/**
 * `createPeer`: a bidirectional JSON-RPC 2.0 endpoint composed around one `Transport`
 * (DESIGN.md section 2). Inbound requests go to handlers by method, outbound requests are
 * correlated by id; batches (section 6) are answered with one array.
 */
import type { Logger, NotifyOptions, Peer, PeerOptions, RequestOptions } from "./peer-types";
import type { Exchange, Transport, TransportSink } from "./transport";
import type { JsonRpcMessage, JsonRpcParams, JsonRpcPayload, JsonRpcRequest, JsonRpcResponse } from "./types";
import type { CallHost, InboundCall } from "./peer-call";
import type { Outcome } from "./peer-inbound";
import { createInbound } from "./peer-inbound";
import { createOutbound } from "./peer-outbound";
import { createReplier } from "./peer-reply";
import { createSignalWatch } from "./peer-watch";
import { FaultCode, RequestError, type TransportError } from "./errors";
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
  const replier = createReplier(logger);

  function notify(method: string, params?: JsonRpcParams, notifyOptions?: NotifyOptions): Promise<void> {
    if (typeof method !== "string") throw new TypeError("notify(method): method must be a string");
    if (isClosed) return Promise.reject(new RequestError(FaultCode.Closed, method, `Cannot send "${method}": the peer is closed`));
    return send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, notifyOptions?.via);
  }

  function response(message: JsonRpcResponse): void {
    if (outbound.settle(message)) return;
    if (message.id === null && "error" in message) logger.warn(`The peer reported an error with no id: ${message.error.message}`, message.error);
    else logger.warn(`${FaultCode.UnknownResponse}: a response arrived for id ${JSON.stringify(message.id)}, which no request awaits`, message);
  }

  function one(message: JsonRpcMessage, exchange: Exchange, inBatch: boolean): Outcome {
    if ("method" in message) {
      if ("id" in message) return inbound.call(message as JsonRpcRequest, exchange, inBatch);
      inbound.notification(message, exchange);
    } else response(message);
    return undefined;
  }

  function batch(messages: readonly JsonRpcMessage[], exchange: Exchange): void {
    let outcomes: Outcome[] | undefined;
    let pending = false;
    for (const message of messages) {
      const outcome = one(message, exchange, true);
      if (outcome === undefined) continue;
      (outcomes ??= []).push(outcome);
      if (outcome instanceof Promise) pending = true;
    }
    if (outcomes === undefined) return;
    if (!pending) replier.batch(exchange, outcomes as (JsonRpcResponse | undefined)[]);
    else void Promise.all(outcomes).then((settled) => replier.batch(exchange, settled));
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
      if (isClosed) return;
      if (!Array.isArray(payload)) {
        const outcome = one(payload as JsonRpcMessage, exchange, false);
        if (outcome !== undefined) replier.single(exchange, outcome);
      } else batch(payload, exchange);
    },
    error: (error: TransportError) => logger.warn(`${error.code}: ${error.message}`, error),
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
