/**
 * The state and services one Streamable HTTP client transport shares between its parts
 * (answer streams, the standalone stream, re-initialization). Internal.
 */
import type { DecodeResult, Exchange, JsonRpcFailure, JsonRpcId, TransportSink } from "@proto/jsonrpc";
import { JsonRpcFaultCode, TransportError, deliverFrame, resolveLimits } from "@proto/jsonrpc";
import type { HttpClientEventListener, HttpClientEvent, ResolvedReconnect, StreamableHttpClientOptions } from "./options";
import type { Requester } from "./http-requester";
import type { LifecycleMemory } from "./lifecycle";
import { resolveReconnect } from "./options";
import { HttpClientFaultCode, isHttpClientError } from "./http-error";
import { createRequester } from "./http-requester";
import { messagesOf } from "./lifecycle";
import { HttpHeader, MediaType } from "../shared/headers";

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

/** What the core needs from the transport that owns it. */
export interface CoreHost {
  readonly signal: AbortSignal;
  readonly lifecycle: LifecycleMemory;
  readonly listeners: ReadonlySet<HttpClientEventListener>;
  /** The sink, while the transport is started and not closed. */
  sink(): TransportSink | undefined;
  /** The exchange of an inbound frame (its `reply` POSTs back). */
  exchange(): Exchange;
}

function toTransportError(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const code = isHttpClientError(error) && error.code === HttpClientFaultCode.Oversized ? JsonRpcFaultCode.Oversized : JsonRpcFaultCode.Closed;
  return new TransportError(code, error instanceof Error ? error.message : String(error), { cause: error });
}

/** Builds the core of a transport for `url`, validating the limit options. */
export function createClientCore(url: URL, options: StreamableHttpClientOptions, host: CoreHost): ClientCore {
  const withSession = (headers: Record<string, string>): Record<string, string> => {
    if (core.sessionId !== undefined) headers[HttpHeader.SessionId] = core.sessionId;
    if (core.protocolVersion !== undefined) headers[HttpHeader.ProtocolVersion] = core.protocolVersion;
    return headers;
  };
  const core: ClientCore = {
    url,
    request: createRequester(options),
    signal: host.signal,
    limits: {
      ...resolveLimits(options),
    },
    reconnect: resolveReconnect(options.reconnect),
    sessionId: options.sessionId,
    protocolVersion: options.protocolVersion,
    emit(event) {
      for (const listener of [options.onEvent, ...host.listeners]) {
        try {
          listener?.(event);
        } catch {
          // A listener's failure is its own; the transport goes on.
        }
      }
    },
    deliver(result) {
      const sink = host.sink();
      if (!sink) return;
      if (result.ok) {
        const version = host.lifecycle.observeInbound(messagesOf(result.payload));
        if (version !== undefined) core.protocolVersion = version;
      }
      deliverFrame(result, sink, host.exchange());
    },
    fault(error) {
      try {
        host.sink()?.error(toTransportError(error));
      } catch {
        // the sink threw while being told of a fault: nothing is left to tell, and no background chain may reject
      }
    },
    postHeaders(startsSession) {
      const headers = { "content-type": MediaType.Json, accept: `${MediaType.Json}, ${MediaType.EventStream}` };
      return startsSession ? headers : withSession(headers);
    },
    getHeaders(lastEventId) {
      const headers = withSession({ accept: MediaType.EventStream });
      if (lastEventId !== undefined) headers[HttpHeader.LastEventId] = lastEventId;
      return headers;
    },
  };
  return core;
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
