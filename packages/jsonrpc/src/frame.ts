/**
 * The one way transports hand a decoded frame to their sink, so every transport answers
 * refused frames and invalid batch elements the same way (JSON-RPC 2.0 section 6).
 */
import type { DecodeResult } from "./codec";
import type { Exchange, TransportSink } from "./transport";

/**
 * Delivers one decoded frame. A refused frame is answered on `exchange` with its error and
 * never reaches the sink. A batch with invalid elements reaches the sink with its valid
 * elements only, and the errors of the invalid ones are folded into the batch's reply (or
 * sent alone when the valid elements expect no reply).
 */
export function deliverFrame(result: DecodeResult, sink: TransportSink, exchange: Exchange): void {
  void result;
  void sink;
  void exchange;
  throw new Error("not implemented yet");
}
