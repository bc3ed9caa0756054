/**
 * Routes one inbound frame: calls to the inbound half, responses to the outbound half,
 * and the outcomes back on the frame's exchange (one reply for a single request, one array
 * for a batch, JSON-RPC 2.0 section 6). Requests of a batch run concurrently.
 */
import type { Logger } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcMessage, JsonRpcPayload, JsonRpcRequest, JsonRpcResponse } from "./types";
import type { Outcome, createInbound } from "./peer-inbound";
import type { Outbound } from "./peer-outbound";
import { createReplier } from "./peer-reply";
import { FaultCode } from "./errors";

/** Builds the frame router of a peer. */
export function createRouter(inbound: ReturnType<typeof createInbound>, outbound: Outbound, logger: Logger) {
  const replier = createReplier(logger);

  function response(message: JsonRpcResponse): void {
    if (outbound.settle(message)) return;
    if (message.id === null && "error" in message) {
      logger.warn(`The peer reported an error with no id: ${message.error.message}`, message.error);
    } else {
      logger.warn(`${FaultCode.UnknownResponse}: a response arrived for id ${JSON.stringify(message.id)}, which no request awaits`, message);
    }
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

  /** Routes one frame (a message or a batch) that arrived on `exchange`. */
  return function route(payload: JsonRpcPayload, exchange: Exchange): void {
    if (Array.isArray(payload)) {
      batch(payload, exchange);
      return;
    }
    const outcome = one(payload as JsonRpcMessage, exchange, false);
    if (outcome !== undefined) replier.single(exchange, outcome);
  };
}
