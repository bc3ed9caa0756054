/**
 * The state and services one Streamable HTTP client transport shares between its parts
 * (answer streams, the standalone stream, re-initialization). Internal.
 */
import type { DecodeResult, JsonRpcFailure, JsonRpcId } from "@proto/jsonrpc";
import type { HttpClientEvent, ResolvedReconnect } from "./options";
import type { Requester } from "./http-requester";
import { isHttpClientError } from "./http-error";

/** Limits applied to every inbound message. */
export interface InboundLimits {
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  readonly maxBatch: number;
}

/** What the parts of a client transport share. */
export interface ClientCore {
  readonly url: URL;
  readonly request: Requester;
  /** Aborted when the transport closes. */
  readonly signal: AbortSignal;
  readonly limits: InboundLimits;
  readonly reconnect: ResolvedReconnect;
  /** The current session id, when the server issued one. */
  sessionId: string | undefined;
  /** The negotiated protocol version, once `initialize` was answered. */
  protocolVersion: string | undefined;
  emit(event: HttpClientEvent): void;
  /** Hands one decoded frame to the sink (after reading the initialize result out of it). */
  deliver(result: DecodeResult): void;
  /** Reports a recoverable fault to the sink. */
  fault(error: unknown): void;
  /** Headers of a POST; `startsSession` for an `initialize` (no session, no version). */
  postHeaders(startsSession: boolean): Record<string, string>;
  /** Headers of a GET that opens or resumes an SSE stream. */
  getHeaders(lastEventId: string | undefined): Record<string, string>;
}

/**
 * The code of the error response the transport delivers for a request whose answer can no
 * longer arrive (its stream was lost for good), so the caller fails at once instead of
 * waiting for a timeout. -32000 is in the implementation-defined server error range.
 */
export const LOST_RESPONSE_CODE = -32000;

/**
 * Delivers, for each request id still owed, an error response that says why its answer
 * will not come. Nothing is delivered once the transport is closed.
 */
export function settleLost(core: ClientCore, pending: ReadonlySet<JsonRpcId>, error: unknown): void {
  if (core.signal.aborted) return;
  const reason = error instanceof Error ? error.message : String(error);
  const data = isHttpClientError(error)
    ? { transport: "http", code: error.code, ...(error.status === undefined ? {} : { status: error.status }) }
    : { transport: "http" };
  for (const id of pending) {
    const failure: JsonRpcFailure = {
      jsonrpc: "2.0",
      id,
      error: { code: LOST_RESPONSE_CODE, message: `No response: ${reason}`, data },
    };
    core.deliver({ ok: true, payload: failure, invalid: [] });
  }
}
