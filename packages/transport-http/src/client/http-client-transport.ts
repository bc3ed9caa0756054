/**
 * An HTTP client transport that speaks Streamable HTTP and falls back to the legacy
 * HTTP+SSE transport when the server predates it (MCP 2025-11-25, basic/transports,
 * "Backwards Compatibility": POST the `initialize`; when that is answered 400, 404 or 405,
 * GET the URL expecting an SSE stream whose first event is `endpoint`).
 */
import type { JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { isNotification, isRequest } from "@proto/jsonrpc";
import type { HttpClientEvent, HttpClientEventListener, StreamableHttpClientOptions } from "./options";
import { HttpClientError, HttpClientFaultCode, isHttpClientError } from "./http-error";
import { isInitializeRequest, messagesOf } from "./lifecycle";
import { modernClaim } from "./request-headers";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { createSseClientTransport } from "../legacy/sse-client-transport";

/** Options of `createHttpClientTransport`. */
export interface HttpClientOptions extends StreamableHttpClientOptions {
  /** Fall back to the legacy HTTP+SSE transport when the first `initialize` POST is answered 400, 404 or 405. Default true. */
  readonly fallback?: boolean;
  /** The legacy SSE endpoint, when it is not the same URL. */
  readonly sseUrl?: string | URL;
  /** How long the legacy transport waits for its `endpoint` event, in ms. Default 30,000. */
  readonly endpointTimeoutMs?: number;
}

/** Which wire protocol an `HttpClientTransport` settled on. */
export type HttpTransportKind = "streamable-http" | "sse";

/** An HTTP client transport with automatic fallback. */
export interface HttpClientTransport extends Transport {
  /** The protocol in use, once the first `initialize` was accepted (modern 2026-07-28 requests, which need no fallback, leave it unset). */
  readonly kind: HttpTransportKind | undefined;
  /** The session id, when the server issued one (Streamable HTTP only). */
  readonly sessionId: string | undefined;
  /** The negotiated protocol version sent as `MCP-Protocol-Version` (Streamable HTTP only). */
  readonly protocolVersion: string | undefined;
  /** Registers an event listener; returns the function that removes it. */
  subscribe(listener: HttpClientEventListener): () => void;
  /** The URL's origin (`https://host:port`): a client remembers what it learned about the server under it. */
  readonly serverKey: string;
  /** A digest of the credential the next request would carry (the `auth` token, else an `Authorization` header), or undefined for none. */
  credentialId(): Promise<string | undefined>;
}

function isModernPayload(payload: JsonRpcPayload): boolean {
  const messages = messagesOf(payload);
  const first = messages[0];
  return messages.length === 1 && first !== undefined && (isRequest(first) ? modernClaim(first) !== undefined : isNotification(first));
}

/** The statuses that mean "no Streamable HTTP here" on the first POST. */
const FALLBACK_STATUSES: ReadonlySet<number> = new Set([400, 404, 405]);

/** A sink that forwards to `target` until it is switched off (the retired transport's close stays silent). */
function gate(target: () => TransportSink | undefined): { sink: TransportSink; off(): void } {
  let on = true;
  return {
    sink: {
      payload: (payload, exchange) => on && target()?.payload(payload, exchange),
      error: (error) => on && target()?.error(error),
      closed: (reason) => on && target()?.closed(reason),
    },
    off: () => {
      on = false;
    },
  };
}

/**
 * Creates an HTTP client transport for the MCP server at `url`: Streamable HTTP first, the
 * legacy HTTP+SSE transport when the first `initialize` POST says the server predates it.
 * It owns the inner transport it settles on and closes it on `close()`.
 */
export function createHttpClientTransport(url: string | URL, options: HttpClientOptions = {}): HttpClientTransport {
  const listeners = new Set<HttpClientEventListener>();
  const emit = (event: HttpClientEvent): void => {
    for (const listener of [options.onEvent, ...listeners]) {
      try {
        listener?.(event);
      } catch {
        // A listener's failure is its own.
      }
    }
  };
  const streamable = createStreamableHttpClientTransport(url, { ...options, onEvent: emit });
  const streamableGate = gate(() => sink);
  let active: Transport = streamable;
  let kind: HttpTransportKind | undefined;
  let sink: TransportSink | undefined;
  let deciding: Promise<void> | undefined;
  let retired = false;
  let closed = false;
  /** The legacy transport while the fallback starts it, with its gate: `close()` must end it too. */
  let starting: { transport: Transport; off(): void } | undefined;

  function closedDuringFallback(): HttpClientError {
    return new HttpClientError(HttpClientFaultCode.Closed, "The transport was closed during the fallback to HTTP+SSE: create a new one to reconnect");
  }

  async function fallBack(payload: JsonRpcPayload, status: number, original: Error): Promise<void> {
    streamableGate.off();
    retired = true;
    await streamable.close();
    // closed meanwhile: no SSE GET may open after close()
    if (closed) throw closedDuringFallback();
    const legacy = createSseClientTransport(options.sseUrl ?? url, options);
    emit({ type: "fallback", status });
    const legacyGate = gate(() => sink);
    starting = { transport: legacy, off: legacyGate.off };
    try {
      await legacy.start(legacyGate.sink);
    } catch (error) {
      legacyGate.off();
      if (closed) throw closedDuringFallback();
      const why = error instanceof Error ? error.message : String(error);
      throw new HttpClientError(HttpClientFaultCode.FallbackFailed, `${original.message}; the legacy HTTP+SSE fallback failed too: ${why}`, { status, cause: error });
    } finally {
      starting = undefined;
    }
    if (closed) throw closedDuringFallback();
    active = legacy;
    kind = "sse";
    await legacy.send(payload);
  }

  async function firstSend(payload: JsonRpcPayload): Promise<void> {
    try {
      await streamable.send(payload);
      if (messagesOf(payload).some(isInitializeRequest)) kind = "streamable-http";
    } catch (error) {
      const status = isHttpClientError(error) ? error.status : undefined;
      const eligible = options.fallback !== false && status !== undefined && FALLBACK_STATUSES.has(status);
      if (!eligible || !messagesOf(payload).some(isInitializeRequest)) throw error;
      await fallBack(payload, status, error as Error);
    }
  }

  return {
    serverKey: streamable.serverKey,
    // Both inner transports send the same credentials (`auth`, `headers`): the Streamable one's id serves for either.
    credentialId: streamable.credentialId,
    get kind() {
      return kind;
    },
    get sessionId() {
      return kind === "sse" ? undefined : streamable.sessionId;
    },
    get protocolVersion() {
      return kind === "sse" ? undefined : streamable.protocolVersion;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start(s) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      sink = s;
      await streamable.start(streamableGate.sink);
    },
    async send(payload) {
      if (kind !== undefined) return active.send(payload);
      // Modern (2026-07-28) requests never lead to the legacy fallback: they go straight out, concurrently.
      if (active === streamable && isModernPayload(payload)) return streamable.send(payload);
      if (deciding) {
        await deciding.catch(() => undefined);
        if (kind !== undefined) return active.send(payload);
      }
      const attempt = firstSend(payload);
      deciding = attempt;
      try {
        await attempt;
      } finally {
        if (deciding === attempt) deciding = undefined;
      }
    },
    async close(reason) {
      if (closed) return;
      closed = true;
      // During or after a failed fallback no inner transport reports the close: end the one
      // starting (its GET is aborted) and report it here, once.
      if (retired && active === streamable) {
        const inFlight = starting;
        starting = undefined;
        inFlight?.off();
        await inFlight?.transport.close(reason);
        return sink?.closed(reason);
      }
      await active.close(reason);
    },
  };
}
