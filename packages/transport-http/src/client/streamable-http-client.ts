/**
 * The Streamable HTTP client transport (MCP 2025-11-25, basic/transports): every outbound
 * payload is a POST; answers come as JSON or SSE; server-initiated messages come on the
 * standalone GET stream; dropped streams resume with `Last-Event-ID`; an expired session
 * is re-initialized transparently; `close()` ends the session with DELETE.
 * Runtime-neutral: `fetch`, `TextDecoder`, `AbortController` only.
 */
import type { DecodeResult, Exchange, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { FaultCode, TransportError, deliverFrame, encode, isResponse } from "@proto/jsonrpc";
import type { ClientCore } from "./client-core";
import type { HttpClientEventListener, StreamableHttpClientOptions } from "./options";
import { DEFAULT_MAX_MESSAGE_BYTES, limitOption, resolveReconnect } from "./options";
import { consumeAnswer } from "./answers";
import { HttpClientError, HttpClientErrorCode, isHttpClientError } from "./http-error";
import { createRequester } from "./http-requester";
import { createLifecycleMemory, messagesOf, requestIdsOf } from "./lifecycle";
import { replayInitialization } from "./reinitialize";
import { discardBody, errorFromResponse } from "./response-body";
import { isEventStream } from "./resumable-stream";
import { createStandaloneStream } from "./standalone-stream";
import { HttpHeader, MediaType } from "../shared/headers";

/** A Streamable HTTP client transport: a `Transport` plus what only HTTP knows. */
export interface StreamableHttpClientTransport extends Transport {
  /** The current session id (`Mcp-Session-Id`), when the server issued one. */
  readonly sessionId: string | undefined;
  /** The negotiated protocol version, sent as `MCP-Protocol-Version`, once known. */
  readonly protocolVersion: string | undefined;
  /** Registers an event listener; returns the function that removes it. */
  subscribe(listener: HttpClientEventListener): () => void;
}

/** Session ids are visible ASCII (MCP 2025-11-25, basic/transports, "Session Management"). */
const SESSION_ID_SHAPE = /^[\x21-\x7e]{1,1024}$/;
/** How long `close()` waits for the DELETE that ends the session. */
const CLOSE_TIMEOUT_MS = 5_000;

/**
 * Creates a Streamable HTTP client transport for the MCP endpoint at `url`. The transport
 * owns its HTTP requests and streams; `close()` aborts them all, ends the session (DELETE;
 * a 405 is fine) and calls `sink.closed` once. `send` resolves once the server accepted the
 * POST; the answer is delivered to the sink as it arrives.
 */
export function createStreamableHttpClientTransport(
  url: string | URL,
  options: StreamableHttpClientOptions = {},
): StreamableHttpClientTransport {
  const endpoint = new URL(url);
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
    throw new TypeError(`createStreamableHttpClientTransport needs an http: or https: URL, got ${endpoint.protocol}`);
  }
  const listeners = new Set<HttpClientEventListener>();
  const lifetime = new AbortController();
  const lifecycle = createLifecycleMemory();
  let sink: TransportSink | undefined;
  let closed = false;
  let reinitializing: Promise<void> | undefined;
  /** Set when the session expired for good; later sends fail with it until a new `initialize`. */
  let lostSession: HttpClientError | undefined;
  let replays = 0;

  const core: ClientCore = {
    url: endpoint,
    request: createRequester(options),
    signal: lifetime.signal,
    limits: {
      maxMessageBytes: limitOption("maxMessageBytes", options.maxMessageBytes, DEFAULT_MAX_MESSAGE_BYTES),
      maxDepth: limitOption("maxDepth", options.maxDepth, 64),
      maxBatch: limitOption("maxBatch", options.maxBatch, 100),
    },
    reconnect: resolveReconnect(options.reconnect),
    sessionId: options.sessionId,
    protocolVersion: options.protocolVersion,
    emit(event) {
      for (const listener of [options.onEvent, ...listeners]) {
        try {
          listener?.(event);
        } catch {
          // A listener's failure is its own; the transport goes on.
        }
      }
    },
    deliver(result: DecodeResult) {
      if (!sink || closed) return;
      if (result.ok) {
        const version = lifecycle.observeInbound(messagesOf(result.payload));
        if (version !== undefined) core.protocolVersion = version;
      }
      deliverFrame(result, sink, exchange());
    },
    fault(error) {
      if (!sink || closed) return;
      if (error instanceof TransportError) return sink.error(error);
      const code = isHttpClientError(error) && error.code === HttpClientErrorCode.Oversized ? FaultCode.Oversized : FaultCode.Closed;
      sink.error(new TransportError(code, error instanceof Error ? error.message : String(error), { cause: error }));
    },
    postHeaders(startsSession) {
      const headers: Record<string, string> = { "content-type": MediaType.Json, accept: `${MediaType.Json}, ${MediaType.EventStream}` };
      return startsSession ? headers : withSession(headers);
    },
    getHeaders(lastEventId) {
      const headers = withSession({ accept: MediaType.EventStream });
      if (lastEventId !== undefined) headers[HttpHeader.LastEventId] = lastEventId;
      return headers;
    },
  };
  if (core.sessionId !== undefined && !SESSION_ID_SHAPE.test(core.sessionId)) {
    throw new TypeError("options.sessionId must be 1 to 1024 visible ASCII characters");
  }
  const standalone = createStandaloneStream(core, (expired) => {
    reinitialize(expired).catch((error: unknown) => core.fault(error));
  });

  function withSession(headers: Record<string, string>): Record<string, string> {
    if (core.sessionId !== undefined) headers[HttpHeader.SessionId] = core.sessionId;
    if (core.protocolVersion !== undefined) headers[HttpHeader.ProtocolVersion] = core.protocolVersion;
    return headers;
  }

  function exchange(): Exchange {
    return {
      reply: (payload) => post(payload, true),
      signal: lifetime.signal,
      info: core.sessionId === undefined ? { transport: "http" } : { transport: "http", sessionId: core.sessionId },
    };
  }

  function captureSession(response: Response): void {
    const id = response.headers.get(HttpHeader.SessionId);
    if (id === null || id === core.sessionId) return;
    if (!SESSION_ID_SHAPE.test(id)) {
      throw new HttpClientError(HttpClientErrorCode.BadResponse, "The server issued an Mcp-Session-Id that is not 1 to 1024 visible ASCII characters");
    }
    core.sessionId = id;
    core.emit({ type: "session", sessionId: id });
  }

  function reinitialize(expired: string): Promise<void> {
    if (core.sessionId !== expired) return reinitializing ?? Promise.resolve();
    const { initialize, initialized } = lifecycle;
    if (!initialize || options.reinitialize === false) {
      core.sessionId = undefined;
      standalone.stop();
      lostSession = new HttpClientError(
        HttpClientErrorCode.SessionExpired,
        `The session ${expired} expired (404): send initialize again, or create a new connection`,
        { status: 404 },
      );
      return Promise.reject(lostSession);
    }
    reinitializing ??= (async () => {
      core.sessionId = undefined;
      standalone.stop();
      const id = `proto-reinitialize-${++replays}`;
      const version = await replayInitialization(core, { initialize, initialized, id, captureSession });
      core.emit({ type: "reinitialized", previousSessionId: expired, sessionId: core.sessionId, protocolVersion: version });
      if (initialized) standalone.open();
    })().catch((error: unknown) => {
      lostSession = error instanceof HttpClientError ? error : new HttpClientError(HttpClientErrorCode.SessionExpired, String(error), { cause: error });
      throw lostSession;
    }).finally(() => {
      reinitializing = undefined;
    });
    return reinitializing;
  }

  async function post(payload: JsonRpcPayload, mayReinitialize: boolean): Promise<void> {
    if (closed) throw closedError();
    const messages = messagesOf(payload);
    const startsSession = lifecycle.observeOutbound(messages);
    if (startsSession) {
      standalone.stop();
      core.sessionId = undefined;
      core.protocolVersion = undefined;
      lostSession = undefined;
    } else if (reinitializing) {
      await reinitializing.catch(() => undefined);
    }
    if (!startsSession && lostSession) throw lostSession;
    const sentSession = core.sessionId;
    const response = await core.request({ method: "POST", url: endpoint, headers: core.postHeaders(startsSession), body: encode(payload), signal: lifetime.signal });
    if (response.status === 404 && sentSession !== undefined && !startsSession) {
      if (!mayReinitialize) throw await errorFromResponse("POST", endpoint, response);
      await discardBody(response);
      await reinitialize(sentSession);
      // Responses answered requests of the expired session: nobody waits for them any more.
      if (messages.every(isResponse)) return;
      return post(payload, false);
    }
    if (!response.ok) throw await errorFromResponse("POST", endpoint, response);
    captureSession(response);
    const requestIds = requestIdsOf(messages);
    if (response.status === 202 || requestIds.length === 0) {
      await discardBody(response);
      if (lifecycle.initialized && messages.includes(lifecycle.initialized) && options.standaloneStream !== false) standalone.open();
      return;
    }
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!isEventStream(response) && !type.startsWith(MediaType.Json)) {
      await discardBody(response);
      throw new HttpClientError(HttpClientErrorCode.BadResponse, `POST ${endpoint.href} answered with content type "${type}", neither JSON nor SSE: is this an MCP endpoint?`);
    }
    void consumeAnswer(core, response, requestIds);
  }

  function closedError(): HttpClientError {
    return new HttpClientError(HttpClientErrorCode.Closed, "The transport is closed: create a new one to reconnect");
  }

  async function terminateSession(sessionId: string): Promise<void> {
    const headers: Record<string, string> = { [HttpHeader.SessionId]: sessionId };
    if (core.protocolVersion !== undefined) headers[HttpHeader.ProtocolVersion] = core.protocolVersion;
    try {
      const response = await core.request({ method: "DELETE", url: endpoint, headers, signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS) });
      await discardBody(response);
    } catch {
      // The server may be gone already; the session then expires on its own.
    }
  }

  return {
    get sessionId() {
      return core.sessionId;
    },
    get protocolVersion() {
      return core.protocolVersion;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start(s) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      if (closed) throw closedError();
      sink = s;
      if (core.sessionId !== undefined && options.standaloneStream !== false) standalone.open();
    },
    async send(payload) {
      if (!sink) throw new TypeError("send() before start(): start the transport (or connect it) first");
      await post(payload, true);
    },
    async close(reason) {
      if (closed) return;
      closed = true;
      const sessionId = core.sessionId;
      lifetime.abort(reason ?? closedError());
      if (sessionId !== undefined && options.terminateOnClose !== false) await terminateSession(sessionId);
      sink?.closed(reason);
    },
  };
}
