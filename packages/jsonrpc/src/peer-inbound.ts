/**
 * The inbound half of a `Peer`: the handler registry, running requests by id (duplicates
 * refused), inbound cancellation, and turning handler outcomes into responses
 * (JSON-RPC 2.0 sections 4 and 5).
 */
import type { CancellationProtocol, Logger, NotificationHandler, RequestHandler } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcId, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "./types";
import type { CallHost } from "./peer-call";
import { InboundCall } from "./peer-call";
import { JsonRpcErrorCode, JsonRpcFaultCode, JsonRpcError, RequestError } from "./errors";

/** A request's outcome: its response, nothing (cancelled or nowhere to send), or a promise of either. */
export type Outcome = JsonRpcResponse | undefined | Promise<JsonRpcResponse | undefined>;

/**
 * Where a request that is not in a batch is answered once its handler's promise settles (the
 * router's): the response or nothing, or, when turning the outcome into a response failed
 * inside the peer, the error (the frame is then finished without an answer).
 */
export interface Answerer {
  answer(exchange: Exchange, response: JsonRpcResponse | undefined): void;
  broken(exchange: Exchange, error: unknown): void;
}

/** What `call` returns when it answers through the `Answerer` later (the handler answered a promise). */
export const LATER: unique symbol = Symbol("answered later");

function failure(id: JsonRpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Builds the inbound half. */
export function createInbound(host: CallHost, logger: Logger, cancellation: CancellationProtocol | undefined, isClosed: () => boolean) {
  const handlers = new Map<string, RequestHandler>();
  const notificationHandlers = new Map<string, NotificationHandler>();
  const running = new Map<JsonRpcId, InboundCall>();

  function register<H>(map: Map<string, H>, kind: string, method: string, handler: H): () => void {
    if (typeof method !== "string" || method === "") throw new TypeError(`${kind}: method must be a non-empty string`);
    if (typeof handler !== "function") throw new TypeError(`${kind}("${method}"): handler must be a function`);
    if (map.has(method)) throw new TypeError(`${kind}("${method}"): a handler is already registered; call the function the first registration returned to remove it`);
    map.set(method, handler);
    return () => {
      if (map.get(method) === handler) map.delete(method);
    };
  }

  /**
   * Settles a call: drops the response (the documented drops) when the peer cancelled it, when
   * the peer is closed, or when its exchange's stream is gone; the router then finishes the frame.
   */
  function settle(call: InboundCall, response: JsonRpcResponse): JsonRpcResponse | undefined {
    call.finish();
    if (running.get(call.id) === call) running.delete(call.id);
    if (call.cancelled) return undefined;
    return isClosed() || (call.exchange.aborted ?? call.exchange.signal.aborted) ? undefined : response;
  }

  function succeed(call: InboundCall, value: unknown): JsonRpcResponse | undefined {
    return settle(call, { jsonrpc: "2.0", id: call.id, result: value === undefined ? null : value });
  }

  function fail(call: InboundCall, error: unknown): JsonRpcResponse | undefined {
    const wire = JsonRpcError.from(error, (original) =>
      logger.error(`The handler of "${call.method}" (id ${String(call.id)}) threw; the peer was answered with -32603`, original),
    );
    return settle(call, { jsonrpc: "2.0", id: call.id, error: wire.toObject() });
  }

  /** Answers `call` through `to` with `outcome(call, value)`; an outcome that throws is the peer's bug (`broken`). */
  function deliver(call: InboundCall, to: Answerer, outcome: (call: InboundCall, value: unknown) => JsonRpcResponse | undefined, value: unknown): void {
    let response: JsonRpcResponse | undefined;
    try {
      response = outcome(call, value);
    } catch (error) {
      return to.broken(call.exchange, error);
    }
    to.answer(call.exchange, response);
  }

  /** Answers `call` through `to` once `value` settled: one promise layer from the handler's promise to the reply. */
  function later(value: PromiseLike<unknown>, call: InboundCall, to: Answerer): void {
    Promise.resolve(value).then(
      (result) => deliver(call, to, succeed, result),
      (error: unknown) => deliver(call, to, fail, error),
    );
  }

  /**
   * Runs one request's handler. A plain return value is answered without a microtask hop. With
   * `to` (a request outside a batch), a promise the handler returns is answered through `to`
   * when it settles, and `LATER` is returned; without it, the promise of the outcome is.
   */
  function call(message: JsonRpcRequest, exchange: Exchange, inBatch: boolean): Outcome;
  function call(message: JsonRpcRequest, exchange: Exchange, inBatch: boolean, to: Answerer): JsonRpcResponse | undefined | typeof LATER;
  function call(message: JsonRpcRequest, exchange: Exchange, inBatch: boolean, to?: Answerer): Outcome | typeof LATER {
    const { id, method } = message;
    const handler = handlers.get(method);
    if (handler === undefined) return failure(id, JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
    if (running.has(id)) {
      return failure(id, JsonRpcErrorCode.InvalidRequest, `Invalid Request: a request with id ${JSON.stringify(id)} is already in flight`);
    }
    const context = new InboundCall(host, id, method, exchange, inBatch);
    // Registered before the handler runs: a handler that synchronously causes another frame
    // to be delivered (a re-entrant transport) must still see its own id as in flight.
    running.set(id, context);
    let value: unknown;
    try {
      value = handler(message.params, context);
    } catch (error) {
      return fail(context, error);
    }
    if (!isThenable(value)) return succeed(context, value);
    if (to !== undefined) {
      later(value, context, to);
      return LATER;
    }
    return Promise.resolve(value).then(
      (result) => succeed(context, result),
      (error: unknown) => fail(context, error),
    );
  }

  function cancel(message: JsonRpcNotification): void {
    if (cancellation === undefined) return;
    let id: JsonRpcId | undefined;
    let reason: string | undefined;
    try {
      id = cancellation.requestId(message.params);
      reason = cancellation.reason?.(message.params);
    } catch (error) {
      logger.warn(`Could not read the cancellation "${message.method}"`, error);
      return;
    }
    const target = id === undefined ? undefined : running.get(id);
    if (target === undefined) return;
    target.cancelled = true;
    const text = `The peer cancelled "${target.method}" (id ${JSON.stringify(target.id)})${reason === undefined ? "" : `: ${reason}`}`;
    target.abort(new RequestError(JsonRpcFaultCode.Aborted, target.method, text));
  }

  function notification(message: JsonRpcNotification, exchange: Exchange): void {
    if (message.method === cancellation?.method) cancel(message);
    const handler = notificationHandlers.get(message.method);
    if (handler === undefined) return;
    const report = (error: unknown): void => logger.error(`The handler of notification "${message.method}" threw`, error);
    try {
      const value: unknown = handler(message.params, { method: message.method, info: exchange.info });
      if (isThenable(value)) value.then(undefined, report);
    } catch (error) {
      report(error);
    }
  }

  /** Aborts every running handler with a `CLOSED` `RequestError` whose cause is the close reason. */
  function abortAll(reason: Error | undefined): void {
    for (const context of running.values()) {
      const text = `The connection closed while "${context.method}" (id ${JSON.stringify(context.id)}) was running`;
      context.abort(new RequestError(JsonRpcFaultCode.Closed, context.method, text, { cause: reason }));
    }
    running.clear();
  }

  return {
    handle: (method: string, handler: RequestHandler) => register(handlers, "handle", method, handler),
    handleNotification: (method: string, handler: NotificationHandler) =>
      register(notificationHandlers, "handleNotification", method, handler),
    call,
    notification,
    abortAll,
  };
}
