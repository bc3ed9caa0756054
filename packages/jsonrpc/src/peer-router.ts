/**
 * Routes one inbound frame: calls to the inbound half, responses to the outbound half,
 * and the outcomes back on the frame's exchange (one reply for a single request, one array
 * for a batch, JSON-RPC 2.0 section 6). Requests of a batch run concurrently.
 */
import type { Logger } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcMessage, JsonRpcPayload, JsonRpcRequest, JsonRpcResponse } from "./types";
import type { Answerer, Outcome, createInbound } from "./peer-inbound";
import { LATER } from "./peer-inbound";
import type { Outbound } from "./peer-outbound";
import { createReplier } from "./peer-reply";
import { JsonRpcFaultCode } from "./errors";

/** Builds the frame router of a peer. */
export function createRouter(inbound: ReturnType<typeof createInbound>, outbound: Outbound, logger: Logger) {
  const replier = createReplier(logger);

  function response(message: JsonRpcResponse): void {
    if (outbound.settle(message)) return;
    if (message.id === null && "error" in message) {
      logger.warn(`The peer reported an error with no id: ${message.error.message}`, message.error);
    } else {
      logger.warn(`${JsonRpcFaultCode.UnknownResponse}: a response arrived for id ${JSON.stringify(message.id)}, which no request awaits`, message);
    }
  }

  function one(message: JsonRpcMessage, exchange: Exchange): Outcome {
    if ("method" in message) {
      if ("id" in message) return inbound.call(message as JsonRpcRequest, exchange, true);
      inbound.notification(message, exchange);
    } else response(message);
    return undefined;
  }

  /** A promised outcome that rejected is a bug of this peer: it is logged, and the frame still finishes. */
  const broken = (exchange: Exchange) => (error: unknown): void => answerer.broken(exchange, error);

  function batch(messages: readonly JsonRpcMessage[], exchange: Exchange): void {
    let outcomes: Outcome[] | undefined;
    let pending = false;
    for (const message of messages) {
      const outcome = one(message, exchange);
      if (outcome === undefined) continue;
      (outcomes ??= []).push(outcome);
      if (outcome instanceof Promise) pending = true;
    }
    if (outcomes === undefined) return replier.finish(exchange);
    if (!pending) return answerBatch(exchange, outcomes as (JsonRpcResponse | undefined)[]);
    Promise.all(outcomes).then((settled) => answerBatch(exchange, settled), broken(exchange));
  }

  function answerBatch(exchange: Exchange, outcomes: readonly (JsonRpcResponse | undefined)[]): void {
    const responses = outcomes.filter((response): response is JsonRpcResponse => response !== undefined);
    if (responses.length > 0) replier.send(exchange, responses);
    else replier.finish(exchange);
  }

  function answer(exchange: Exchange, response: JsonRpcResponse | undefined): void {
    if (response !== undefined) replier.send(exchange, response);
    else replier.finish(exchange);
  }

  // A single request whose handler answered a promise is answered from the inbound half's one reaction to it.
  const answerer: Answerer = {
    answer,
    broken(exchange, error) {
      logger.error("A request outcome failed inside the peer; its frame is finished without it", error);
      replier.finish(exchange);
    },
  };

  /**
   * Routes one frame (a message or a batch) that arrived on `exchange`, and finishes the frame
   * once its last answer is written or dropped (at once when it holds no request).
   */
  return function route(payload: JsonRpcPayload, exchange: Exchange): void {
    if (Array.isArray(payload)) return batch(payload, exchange);
    const message = payload as JsonRpcMessage;
    if ("method" in message && "id" in message) {
      const outcome = inbound.call(message as JsonRpcRequest, exchange, false, answerer);
      if (outcome !== LATER) answer(exchange, outcome);
      return;
    }
    one(message, exchange);
    replier.finish(exchange);
  };
}
