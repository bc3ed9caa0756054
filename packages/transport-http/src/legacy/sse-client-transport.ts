/**
 * The legacy HTTP+SSE client transport (MCP 2024-11-05, basic/transports): a GET opens an
 * SSE stream whose first `endpoint` event names the URL to POST messages to; every message
 * from the server arrives on that stream as a `message` event. Kept for servers that predate
 * Streamable HTTP; `createHttpClientTransport` falls back to it on its own.
 */
import type { Exchange, JsonRpcPayload, Transport, TransportSink } from "@proto/jsonrpc";
import { checkLimit, decode, deliverFrame, encode, resolveLimits } from "@proto/jsonrpc";
import type { HttpAuth } from "../client/http-auth";
import type { FetchLike, HeadersOption } from "../client/options";
import { HttpClientError, HttpClientFaultCode, isHttpClientError } from "../client/http-error";
import { createRequester } from "../client/http-requester";
import { createCredentialId } from "../client/credential-id";
import { discardBody, errorFromResponse } from "../client/response-body";
import { isEventStream } from "../client/resumable-stream";
import { readSse } from "../client/sse-reader";
import { MediaType } from "../shared/headers";

/** Options of `createSseClientTransport`. */
export interface SseClientOptions {
  /** Bearer tokens for every request; asked again once after a 401. */
  readonly auth?: HttpAuth;
  /** Extra headers on every request. */
  readonly headers?: HeadersOption;
  /** The `fetch` to use. Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  /** Largest accepted message in bytes. Default 4 MiB. */
  readonly maxMessageBytes?: number;
  /** Deepest accepted JSON nesting. Default 64. */
  readonly maxDepth?: number;
  /** Most messages accepted in one batch. Default 100. */
  readonly maxBatch?: number;
  /** How long `start` waits for the `endpoint` event, in ms. Default 30,000. */
  readonly endpointTimeoutMs?: number;
}

/** A legacy HTTP+SSE client transport. */
export interface SseClientTransport extends Transport {
  /** The URL messages are POSTed to, once the server named it. */
  readonly endpoint: URL | undefined;
  /** The SSE URL's origin (`https://host:port`): a client remembers what it learned about the server under it. */
  readonly serverKey: string;
  /** A digest of the credential the next request would carry (the `auth` token, else an `Authorization` header), or undefined for none. */
  credentialId(): Promise<string | undefined>;
}

/**
 * Creates a legacy HTTP+SSE client transport for the SSE endpoint at `url`. `start` opens
 * the stream and resolves once the server named its message endpoint, which must be on the
 * same origin (another origin is refused: a server must not redirect our messages).
 * The transport owns the stream; `close()` aborts it and calls `sink.closed` once. When the
 * server ends the stream, the transport closes with a `STREAM_LOST` reason.
 */
export function createSseClientTransport(url: string | URL, options: SseClientOptions = {}): SseClientTransport {
  const sseUrl = new URL(url);
  const request = createRequester(options);
  const lifetime = new AbortController();
  const limits = {
    ...resolveLimits(options),
  };
  const endpointTimeoutMs = checkLimit("endpointTimeoutMs", options.endpointTimeoutMs, 30_000);
  let sink: TransportSink | undefined;
  let endpoint: URL | undefined;
  let closed = false;
  let endpointError: HttpClientError | undefined;
  let settleEndpoint: () => void = () => undefined;
  const endpointSettled = new Promise<void>((resolve) => {
    settleEndpoint = resolve;
  });
  const exchange: Exchange = { reply: (payload) => post(payload), signal: lifetime.signal, info: { transport: "sse" } };

  function readEndpoint(data: string): void {
    let target: URL;
    try {
      target = new URL(data, sseUrl);
    } catch {
      endpointError = new HttpClientError(HttpClientFaultCode.BadEndpoint, `The SSE server sent an endpoint that is not a URL: "${data.slice(0, 100)}"`);
      settleEndpoint();
      return;
    }
    if (target.origin !== sseUrl.origin) {
      endpointError = new HttpClientError(
        HttpClientFaultCode.BadEndpoint,
        `The SSE server named a message endpoint on another origin (${target.origin}, expected ${sseUrl.origin}): refused`,
      );
      settleEndpoint();
      return;
    }
    endpoint = target;
    settleEndpoint();
  }

  async function post(payload: JsonRpcPayload): Promise<void> {
    if (closed) throw new HttpClientError(HttpClientFaultCode.Closed, "The transport is closed: create a new one to reconnect");
    if (!endpoint) throw new TypeError("send() before start() resolved: the server has not named its message endpoint yet");
    const headers = { "content-type": MediaType.Json };
    const response = await request({ method: "POST", url: endpoint, headers, body: encode(payload), signal: lifetime.signal });
    if (!response.ok) throw await errorFromResponse("POST", endpoint, response);
    await discardBody(response);
  }

  async function read(body: ReadableStream<Uint8Array>): Promise<void> {
    let reason: Error;
    try {
      await readSse(
        body,
        {
          event(event) {
            if (event.event === "endpoint") readEndpoint(event.data.trim());
            else if ((event.event === undefined || event.event === "message") && event.data !== "" && sink) {
              deliverFrame(decode(event.data, limits), sink, exchange);
            }
            return endpointError !== undefined;
          },
          retry() {},
        },
        limits.maxMessageBytes,
      );
      reason = endpointError ?? new HttpClientError(HttpClientFaultCode.StreamLost, "The server ended the legacy SSE stream: the session is over, reconnect to go on");
    } catch (error) {
      // A read that failed (the connection dropped) is a lost stream; an oversized event keeps its own code.
      reason = isHttpClientError(error)
        ? error
        : new HttpClientError(HttpClientFaultCode.StreamLost, `The legacy SSE stream failed (${error instanceof Error ? error.message : String(error)}): the session is over, reconnect to go on`, { cause: error });
    }
    if (!closed) await close(reason);
  }

  async function waitForEndpoint(reading: Promise<void>): Promise<void> {
    let ended = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      endpointSettled,
      reading.then(() => {
        ended = true;
      }),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, endpointTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (endpoint) return;
    throw (
      endpointError ??
      new HttpClientError(
        HttpClientFaultCode.BadEndpoint,
        ended
          ? "The SSE stream ended before the server named its message endpoint"
          : `The SSE server named no message endpoint within ${endpointTimeoutMs} ms: is this a legacy MCP SSE endpoint?`,
      )
    );
  }

  async function close(reason?: Error): Promise<void> {
    if (closed) return;
    closed = true;
    lifetime.abort(reason);
    sink?.closed(reason);
  }

  return {
    serverKey: sseUrl.origin,
    credentialId: createCredentialId(options),
    get endpoint() {
      return endpoint;
    },
    async start(s) {
      if (sink) throw new TypeError("start() called twice: a transport has exactly one sink");
      sink = s;
      const response = await request({ method: "GET", url: sseUrl, headers: { accept: MediaType.EventStream }, signal: lifetime.signal });
      if (!response.ok) throw await errorFromResponse("GET", sseUrl, response);
      if (!isEventStream(response) || !response.body) {
        await discardBody(response);
        throw new HttpClientError(HttpClientFaultCode.BadResponse, `GET ${sseUrl.href} did not answer with an SSE stream: is this a legacy MCP SSE endpoint?`);
      }
      const reading = read(response.body);
      try {
        await waitForEndpoint(reading);
      } catch (error) {
        await close(error as Error);
        throw error;
      }
    },
    send: post,
    close,
  };
}
