/**
 * The one way transports hand a decoded frame to their sink, so every transport answers
 * refused frames and invalid batch elements the same way (JSON-RPC 2.0 section 6).
 */
import type { DecodeResult } from "./codec";
import type { Exchange, TransportSink } from "./transport";
import type { JsonRpcFailure, JsonRpcMessage, JsonRpcPayload } from "./types";
import { JsonRpcFaultCode, TransportError } from "./errors";
import { isResponse } from "./types";

/** Replies `payload`, reports a failure as `WRITE_FAILED`, and finishes the frame either way. */
function replyAndFinish(exchange: Exchange, payload: JsonRpcPayload, sink: TransportSink): void {
  const finish = (): void => exchange.finish?.();
  const failed = (cause: unknown): void => {
    sink.error(new TransportError(JsonRpcFaultCode.WriteFailed, "Could not send the error reply to a refused frame", { cause }));
    finish();
  };
  try {
    exchange.reply(payload).then(finish, failed);
  } catch (cause) {
    failed(cause);
  }
}

function isResponseArray(payload: JsonRpcPayload): payload is readonly JsonRpcMessage[] {
  return Array.isArray(payload) && payload.every(isResponse);
}

/**
 * Wraps a batch's exchange so the errors of its invalid elements ride in the batch's single
 * reply: the first array of responses replied is extended with them. If the consumer finishes
 * the frame without such a reply (every request dropped, or none in the valid part), they are
 * sent alone before the frame is finished.
 */
function foldingExchange(exchange: Exchange, invalid: readonly JsonRpcFailure[], sink: TransportSink): Exchange {
  let folded = false;
  return {
    signal: exchange.signal,
    info: exchange.info,
    reply(payload: JsonRpcPayload): Promise<void> {
      if (folded || !isResponseArray(payload)) return exchange.reply(payload);
      // counted as folded only once written: a retry (the -32603 fallback) carries them again
      return exchange.reply([...payload, ...invalid]).then(() => {
        folded = true;
      });
    },
    finish(): void {
      if (folded) exchange.finish?.();
      else {
        folded = true;
        replyAndFinish(exchange, invalid, sink);
      }
    },
  };
}

function refusal(result: DecodeResult & { ok: false }): TransportError {
  const id = result.responseId;
  if (id === undefined) return new TransportError(JsonRpcFaultCode.BadFrame, `Refused a frame: ${result.error.error.message}`);
  const reason = result.error.error.message.replace(/^Invalid Request: the message /, "");
  return new TransportError(JsonRpcFaultCode.Oversized, `The response with id ${JSON.stringify(id)} was dropped unread: it ${reason}`, { responseId: id });
}

/**
 * Delivers one decoded frame. A refused frame is answered on `exchange` with its error
 * (unless the result is marked `silent`) and never reaches the sink. A batch with invalid elements reaches the sink with its valid
 * elements only, and the errors of the invalid ones are folded into the batch's reply (or
 * sent alone when the valid elements expect no reply). An all-notification batch gets no
 * reply from here. Every refusal is also reported to `sink.error` as `BAD_FRAME`, so the
 * owner can log it; a failed error reply is reported as `WRITE_FAILED`. A refused frame is
 * finished here (`exchange.finish`); a delivered frame is finished by the sink. A response dropped
 * unread (too large) whose id could be read is reported as `OVERSIZED` with its `responseId`, so
 * the `Peer` fails the request it answers at once. Throws only what the sink throws.
 */
export function deliverFrame(result: DecodeResult, sink: TransportSink, exchange: Exchange): void {
  if (!result.ok) {
    sink.error(refusal(result));
    if (result.silent !== true) replyAndFinish(exchange, result.error, sink);
    else exchange.finish?.();
    return;
  }
  const { payload, invalid } = result;
  if (invalid.length === 0) {
    sink.payload(payload, exchange);
    return;
  }
  sink.error(new TransportError(JsonRpcFaultCode.BadFrame, `Refused ${invalid.length} invalid message(s) of a batch`));
  const valid = payload as readonly JsonRpcMessage[];
  const folding = foldingExchange(exchange, invalid, sink);
  if (valid.length > 0) sink.payload(valid, folding);
  else folding.finish?.();
}
