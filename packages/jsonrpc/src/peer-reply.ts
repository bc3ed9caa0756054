/**
 * Sending responses back on an exchange. A reply that fails is reported, never thrown;
 * when the failure is a result that cannot be serialised (a `BigInt`, a cycle), that
 * response is replaced by -32603 and the reply is tried once more, so the requester is
 * not left waiting for a timeout.
 */
import type { Logger } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcPayload, JsonRpcResponse } from "./types";
import type { Outcome } from "./peer-inbound";
import { ErrorCode } from "./errors";
import { encode } from "./codec";

function serialisable(response: JsonRpcResponse, logger: Logger): JsonRpcResponse {
  try {
    encode(response);
    return response;
  } catch (error) {
    logger.error(`The response to request ${JSON.stringify(response.id)} cannot be serialised; the peer was answered with -32603`, error);
    return { jsonrpc: "2.0", id: response.id, error: { code: ErrorCode.InternalError, message: "Internal error" } };
  }
}

/** Builds the reply helpers a peer uses for single messages and batches. */
export function createReplier(logger: Logger) {
  function retry(exchange: Exchange, payload: JsonRpcPayload, error: unknown): void {
    const list = (Array.isArray(payload) ? payload : [payload]) as JsonRpcResponse[];
    const fixed = list.map((response) => serialisable(response, logger));
    if (fixed.every((response, i) => response === list[i])) {
      logger.warn("Could not send a response; the peer will not get it", error);
      return;
    }
    send(exchange, Array.isArray(payload) ? fixed : (fixed[0] as JsonRpcResponse), false);
  }

  function send(exchange: Exchange, payload: JsonRpcPayload, firstTry: boolean): void {
    const failed = (error: unknown): void => {
      if (firstTry) retry(exchange, payload, error);
      else logger.warn("Could not send a response; the peer will not get it", error);
    };
    try {
      exchange.reply(payload).then(undefined, failed);
    } catch (error) {
      failed(error);
    }
  }

  return {
    single(exchange: Exchange, outcome: Outcome): void {
      if (outcome instanceof Promise) {
        void outcome.then((response) => response !== undefined && send(exchange, response, true));
      } else if (outcome !== undefined) send(exchange, outcome, true);
    },
    batch(exchange: Exchange, outcomes: readonly (JsonRpcResponse | undefined)[]): void {
      const responses = outcomes.filter((response): response is JsonRpcResponse => response !== undefined);
      if (responses.length > 0) send(exchange, responses, true);
    },
  };
}
