/**
 * The Streamable HTTP client transport (MCP 2025-11-25, basic/transports): every outbound
 * payload is a POST; answers come as JSON or SSE; server-initiated messages come on the
 * standalone GET stream; dropped streams resume with `Last-Event-ID`; an expired session
 * is re-initialized transparently; `close()` ends the session with DELETE.
 * A request that carries the 2026-07-28 claim (`_meta` `io.modelcontextprotocol/protocolVersion`)
 * goes out on the modern wire instead (`modern-post.ts`): no session, headers from the body.
 * Runtime-neutral: `fetch`, `TextDecoder`, `AbortController` only.
 */
import type { JsonRpcId, JsonRpcMessage, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { encode, isRequest, isResponse } from "@proto/jsonrpc";
import type { HttpClientEventListener, StreamableHttpClientOptions } from "./options";
import { consumeAnswer } from "./answers";
import { createClientCore } from "./client-core";
import { createCredentialId } from "./credential-id";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { createLifecycleMemory, messagesOf, requestIdsOf } from "./lifecycle";
import { createModernPoster } from "./modern-post";
import { createCancelTracker, type TrackedStream } from "./cancel-streams";
import { modernClaim } from "./request-headers";
import { createToolHeaders } from "./tool-headers";
import { discardBody, errorFromResponse } from "./response-body";
import { isEventStream } from "./resumable-stream";
import { SESSION_ID_SHAPE, createSessionKeeper } from "./session-keeper";
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
  /** The URL's origin (`https://host:port`): a client remembers what it learned about the server under it. */
  readonly serverKey: string;
  /** A digest of the credential the next request would carry (the `auth` token, else an `Authorization` header), or undefined for none. */
  credentialId(): Promise<string | undefined>;
}

/** How long `close()` waits for the DELETE that ends the session. */
const CLOSE_TIMEOUT_MS = 5_000;

function checkUrl(url: string | URL): URL {
  const endpoint = new URL(url);
  if (endpoint.protocol !== "http:" && endpoint.protocol !== "https:") {
    throw new TypeError(`createStreamableHttpClientTransport needs an http: or https: URL, got ${endpoint.protocol}`);
  }
  return endpoint;
}

/**
 * A 400 whose JSON-RPC error speaks of the session ("Bad Request: No valid session ID provided")
 * is how the official SDK's example servers, and the reference servers built on them, answer a
 * session they no longer know; it is treated as the spec's 404.
 */
function namesStaleSession(refusal: HttpClientError): boolean {
  return /session/i.test(refusal.rpcError?.message ?? "");
}

function closedError(): HttpClientError {
  return new HttpClientError(HttpClientFaultCode.Closed, "The transport is closed: create a new one to reconnect");
}

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
  const endpoint = checkUrl(url);
  if (options.sessionId !== undefined && !SESSION_ID_SHAPE.test(options.sessionId)) {
    throw new TypeError("options.sessionId must be 1 to 1024 visible ASCII characters");
  }
  const listeners = new Set<HttpClientEventListener>();
  const lifetime = new AbortController();
  const lifecycle = createLifecycleMemory();
  let sink: TransportSink | undefined;
  let closed = false;
  const core = createClientCore(endpoint, options, {
    signal: lifetime.signal,
    lifecycle,
    listeners,
    sink: () => (closed ? undefined : sink),
    exchange: () => ({
      reply: (payload) => post(payload, true),
      signal: lifetime.signal,
      info: core.sessionId === undefined ? { transport: "http" } : { transport: "http", sessionId: core.sessionId },
    }),
  });
  const standalone = createStandaloneStream(core, (expired) => {
    session.expired(expired).catch((error: unknown) => core.fault(error));
  });
  const session = createSessionKeeper(core, lifecycle, standalone, options.reinitialize !== false);
  const wantsStandalone = options.standaloneStream !== false;
  const modern = createModernPoster(core, createToolHeaders());
  const cancels = createCancelTracker(lifetime.signal);

  async function post(payload: JsonRpcPayload, mayReinitialize: boolean): Promise<void> {
    if (closed) throw closedError();
    const messages = messagesOf(payload);
    const single = messages.length === 1 ? messages[0] : undefined;
    if (single !== undefined) {
      const version = isRequest(single) ? modernClaim(single) : undefined;
      if (version !== undefined && isRequest(single)) return modern.post(single, version);
      if (modern.cancel(single)) return;
    }
    // A stateful server routes notifications/cancelled itself and may still answer on the
    // cancelled request's stream (its own cancellation of a request it made): keep it open.
    if (core.sessionId === undefined) for (const message of messages) cancels.observe(message);
    const startsSession = lifecycle.observeOutbound(messages);
    if (startsSession) session.restart();
    else await session.ready();
    const requestIds = requestIdsOf(messages);
    const stream = cancels.open(requestIds);
    try {
      return await exchange(payload, messages, requestIds, startsSession, mayReinitialize, stream);
    } catch (error) {
      stream.done();
      // A POST whose every request was cancelled was closed on purpose: nothing failed.
      if (stream.cancelled && !lifetime.signal.aborted) return undefined;
      throw error;
    }
  }

  /** One POST and the start of its answer; the answer stream is read on (and untracked) in the background. */
  async function exchange(payload: JsonRpcPayload, messages: readonly JsonRpcMessage[], requestIds: readonly JsonRpcId[], startsSession: boolean, mayReinitialize: boolean, stream: TrackedStream): Promise<void> {
    const sentSession = core.sessionId;
    const headers = core.postHeaders(startsSession);
    const response = await core.request({ method: "POST", url: endpoint, headers, body: encode(payload), signal: stream.signal });
    if ((response.status === 404 || response.status === 400) && sentSession !== undefined && !startsSession && mayReinitialize) {
      const refusal = response.status === 400 ? await errorFromResponse("POST", endpoint, response) : undefined;
      if (refusal !== undefined && !namesStaleSession(refusal)) throw refusal;
      if (refusal === undefined) await discardBody(response);
      await session.expired(sentSession);
      // Responses answered requests of the expired session: nobody waits for them any more.
      stream.done();
      return messages.every(isResponse) ? undefined : post(payload, false);
    }
    if (!response.ok) throw await errorFromResponse("POST", endpoint, response);
    session.capture(response);
    if (response.status === 202 || requestIds.length === 0) {
      stream.done();
      await discardBody(response);
      const initialized = lifecycle.initialized;
      if (wantsStandalone && initialized && messages.includes(initialized)) standalone.open();
      return;
    }
    const type = (response.headers.get("content-type") ?? "").toLowerCase();
    if (!isEventStream(response) && !type.startsWith(MediaType.Json)) {
      await discardBody(response);
      throw new HttpClientError(
        HttpClientFaultCode.BadResponse,
        `POST ${endpoint.href} answered with content type "${type}", neither JSON nor SSE: is this an MCP endpoint?`,
      );
    }
    void consumeAnswer(core, response, requestIds, { signal: stream.signal })
      .catch((error: unknown) => core.fault(error))
      .finally(() => stream.done());
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
    serverKey: endpoint.origin,
    credentialId: createCredentialId(options),
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
      if (core.sessionId !== undefined && wantsStandalone) standalone.open();
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
