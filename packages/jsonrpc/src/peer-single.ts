/**
 * Answering the one request of a single-request transport (a stateless Streamable HTTP POST)
 * without building a `Peer`: no handler table, no pending maps, no closed promise, nothing
 * per method. The request runs with the context a peer gives its handlers (`InboundCall`),
 * and its outcome is answered as a peer answers it: the result (`null` for undefined), the
 * handler's `JsonRpcError`, else -32603 with the original logged; nothing once the exchange
 * aborted or the owner closed; -32603 once more when the response cannot be serialised. The
 * frame is finished after the reply, as `Exchange.finish` asks of every sink.
 */
import type { Logger, RequestContext, RequestOptions } from "./peer-types";
import type { Exchange, Transport } from "./transport";
import type { JsonRpcParams, JsonRpcRequest, JsonRpcResponse } from "./types";
import type { CallHost } from "./peer-call";
import { InboundCall } from "./peer-call";
import { createReplier } from "./peer-reply";
import { createSignalWatch } from "./peer-watch";
import { JsonRpcError, JsonRpcFaultCode, RequestError } from "./errors";

/**
 * A transport that delivers exactly one frame, a single request, and has no channel of its own
 * (`send` rejects): one stateless Streamable HTTP POST. A consumer may answer that request with
 * `createSingleResponder` instead of a `Peer`; every `Transport` still works with a `Peer`.
 */
export interface SingleRequestTransport extends Transport {
  /** Marks the transport as carrying one request. */
  readonly singleRequest: true;
}

/** True when `transport` carries one request (`SingleRequestTransport`). */
export function isSingleRequestTransport(transport: Transport): transport is SingleRequestTransport {
  return (transport as Partial<SingleRequestTransport>).singleRequest === true;
}

/** Who serves the request: its handler, and whether it closed (then the response is dropped, as a closed peer drops it). */
export interface SingleRequestOwner {
  readonly isClosed: boolean;
  /** Answers `request` as a `RequestHandler` does: a value, a promise of one, or a throw. */
  serve(request: JsonRpcRequest, context: RequestContext): unknown;
}

/** Answers one request on its exchange through `owner.serve`; never throws. */
export type SingleResponder = (request: JsonRpcRequest, exchange: Exchange, owner: SingleRequestOwner) => void;

/**
 * Aborts the handler of a single request whose owner closed before it settled, as a closing
 * `Peer` aborts its running handlers (`RequestError` `CLOSED`, the close reason as cause).
 */
export function abortSingleRequest(context: RequestContext, reason: Error | undefined): void {
  if (!(context instanceof InboundCall) || context.finished) return;
  const text = `The connection closed while "${context.method}" (id ${JSON.stringify(context.id)}) was running`;
  context.abort(new RequestError(JsonRpcFaultCode.Closed, context.method, text, { cause: reason }));
}

// One host for every single request: related notifications go back on the request's exchange;
// the exchange's signal is watched only when the handler reads `signal`.
const watch = createSignalWatch();
const HOST: CallHost = {
  notify: (method, params, options) => options.via.reply(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }),
  request: (method: string, _params: JsonRpcParams | undefined, _options: RequestOptions) =>
    Promise.reject(new RequestError(JsonRpcFaultCode.Closed, method, `Cannot send "${method}": a single-request transport carries no response back to the server; ask the client for input another way`)),
  watch: watch.add,
  unwatch: watch.remove,
};

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Builds the responder of one server (one logger); it holds nothing per request. */
export function createSingleResponder(logger: Logger): SingleResponder {
  const replier = createReplier(logger);

  function answer(call: InboundCall, owner: SingleRequestOwner, response: JsonRpcResponse): void {
    call.finish();
    const exchange = call.exchange;
    if (owner.isClosed || (exchange.aborted ?? exchange.signal.aborted)) replier.finish(exchange);
    else replier.send(exchange, response);
  }

  function failed(call: InboundCall, owner: SingleRequestOwner, error: unknown): void {
    const wire = JsonRpcError.from(error, (original) =>
      logger.error(`The handler of "${call.method}" (id ${String(call.id)}) threw; the peer was answered with -32603`, original),
    );
    answer(call, owner, { jsonrpc: "2.0", id: call.id, error: wire.toObject() });
  }

  return (request, exchange, owner) => {
    const call = new InboundCall(HOST, request.id, request.method, exchange, false);
    let value: unknown;
    try {
      value = owner.serve(request, call);
    } catch (error) {
      return failed(call, owner, error);
    }
    if (!isThenable(value)) return answer(call, owner, { jsonrpc: "2.0", id: call.id, result: value === undefined ? null : value });
    Promise.resolve(value).then(
      (result) => answer(call, owner, { jsonrpc: "2.0", id: call.id, result: result === undefined ? null : result }),
      (error: unknown) => failed(call, owner, error),
    );
  };
}
