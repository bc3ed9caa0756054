/**
 * Sending responses back on an exchange and finishing its frame. A reply that fails is
 * reported, never thrown; when the failure is a result that cannot be serialised (a `BigInt`,
 * a cycle), that response is replaced by -32603 and the reply is tried once more on the same
 * exchange, so the requester is not left waiting for a timeout. Only a reply that resolved
 * counts as written; the frame is finished after it (or after the documented drop).
 */
import type { Logger } from "./peer-types";
import type { Exchange } from "./transport";
import type { JsonRpcPayload, JsonRpcResponse } from "./types";
import { JsonRpcErrorCode } from "./errors";
import { encode } from "./codec";

function serialisable(response: JsonRpcResponse, logger: Logger): JsonRpcResponse {
  try {
    encode(response);
    return response;
  } catch (error) {
    logger.error(`The response to request ${JSON.stringify(response.id)} cannot be serialised; the peer was answered with -32603`, error);
    return { jsonrpc: "2.0", id: response.id, error: { code: JsonRpcErrorCode.InternalError, message: "Internal error" } };
  }
}

/** The reply helpers of one peer. Every function settles without throwing or rejecting. */
export interface Replier {
  /** Tells `exchange` that its frame owes nothing more (a throwing transport is logged). */
  finish(exchange: Exchange): void;
  /** Writes `payload` (retrying once with -32603 where it cannot be serialised), then finishes the frame. */
  send(exchange: Exchange, payload: JsonRpcPayload): void;
}

/** Builds the reply helpers a peer uses for single messages and batches. */
export function createReplier(logger: Logger): Replier {
  function finish(exchange: Exchange): void {
    if (exchange.finish === undefined) return;
    try {
      exchange.finish();
    } catch (error) {
      logger.warn("The transport threw while finishing a frame", error);
    }
  }

  function lost(exchange: Exchange, error: unknown): void {
    logger.warn("Could not send a response; the peer will not get it", error);
    finish(exchange);
  }

  function write(exchange: Exchange, payload: JsonRpcPayload, failed: (error: unknown) => void): void {
    const done = (): void => finish(exchange);
    try {
      exchange.reply(payload).then(done, failed);
    } catch (error) {
      failed(error);
    }
  }

  function retry(exchange: Exchange, payload: JsonRpcPayload, error: unknown): void {
    const list = (Array.isArray(payload) ? payload : [payload]) as JsonRpcResponse[];
    const fixed = list.map((response) => serialisable(response, logger));
    if (fixed.every((response, i) => response === list[i])) return lost(exchange, error);
    write(exchange, Array.isArray(payload) ? fixed : (fixed[0] as JsonRpcResponse), (again) => lost(exchange, again));
  }

  return {
    finish,
    send(exchange, payload) {
      write(exchange, payload, (error) => retry(exchange, payload, error));
    },
  };
}
