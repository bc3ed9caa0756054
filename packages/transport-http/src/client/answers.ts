/**
 * Consumes the answer to a POST that carried requests: a JSON body, or an SSE stream that
 * may carry related requests and notifications before the responses and may be resumed
 * (MCP 2025-11-25, basic/transports, "Sending Messages to the Server"). Every request id of
 * the POST ends answered: by the server, or by a local error response when the answer is lost.
 */
import type { DecodeResult, JsonRpcId, JsonRpcPayload } from "@proto/jsonrpc";
import { decode, isResponse } from "@proto/jsonrpc";
import type { ClientCore } from "./client-core";
import { settleLost } from "./client-core";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { discardBody, readCappedBytes } from "./response-body";
import { isEventStream, runResumableStream } from "./resumable-stream";

function markAnswered(payload: JsonRpcPayload, pending: Set<JsonRpcId>): void {
  for (const message of Array.isArray(payload) ? payload : [payload]) {
    if (isResponse(message) && message.id !== null) pending.delete(message.id);
  }
}

/** How one answer is consumed: the 2025 wire resumes streams; the 2026-07-28 wire does not, and may rewrite what it reads. */
export interface AnswerOptions {
  /** Resume a dropped SSE stream with `Last-Event-ID` (2025-11-25 only). Default true. */
  readonly resumable?: boolean;
  /** Aborted when the request was cancelled: its stream is dropped and nothing is settled for it. */
  readonly signal?: AbortSignal;
  /** Rewrites each decoded payload before delivery (the `tools/list` filter of `x-mcp-header`). */
  readonly transform?: (payload: JsonRpcPayload) => JsonRpcPayload;
}

function deliverTracked(core: ClientCore, result: DecodeResult, pending: Set<JsonRpcId>, options: AnswerOptions): boolean {
  const delivered = result.ok && options.transform !== undefined ? { ...result, payload: options.transform(result.payload) } : result;
  if (delivered.ok) markAnswered(delivered.payload, pending);
  core.deliver(delivered);
  return pending.size === 0;
}

function settle(core: ClientCore, pending: Set<JsonRpcId>, error: unknown, options: AnswerOptions): void {
  if (options.signal?.aborted !== true) settleLost(core, pending, error);
}

async function consumeJson(core: ClientCore, response: Response, pending: Set<JsonRpcId>, options: AnswerOptions): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await readCappedBytes(response, core.limits.maxMessageBytes);
  } catch (error) {
    if (!core.signal.aborted && options.signal?.aborted !== true) core.fault(error);
    settle(core, pending, error, options);
    return;
  }
  deliverTracked(core, decode(bytes, core.limits), pending, options);
  if (pending.size > 0) {
    settle(core, pending, new HttpClientError(HttpClientFaultCode.BadResponse, "the server's JSON answer held no response for this request"), options);
  }
}

async function consumeStream(core: ClientCore, response: Response, pending: Set<JsonRpcId>, options: AnswerOptions): Promise<void> {
  const resumable = options.resumable !== false;
  const outcome = await runResumableStream(response, {
    stream: "request",
    url: core.url,
    open: (lastEventId) =>
      core.request({ method: "GET", url: core.url, headers: core.getHeaders(lastEventId), signal: core.signal }),
    message: (data) => deliverTracked(core, decode(data, core.limits), pending, options),
    fault: (error) => core.fault(error),
    emit: (event) => core.emit(event),
    reconnect: resumable ? core.reconnect : { ...core.reconnect, maxRetries: 0 },
    maxEventChars: core.limits.maxMessageBytes,
    signal: options.signal ?? core.signal,
  });
  switch (outcome.kind) {
    case "complete":
    case "closed":
      return;
    case "unsupported":
      settle(
        core,
        pending,
        new HttpClientError(
          HttpClientFaultCode.StreamLost,
          "the server closed the answer stream early and refused to resume it (GET answered 405)",
          { status: 405 },
        ),
        options,
      );
      return;
    case "session-gone":
    case "failed":
      settle(core, pending, outcome.error, options);
  }
}

/**
 * Consumes the answer to a POST whose requests are `requestIds`, delivering every frame to
 * the sink. Resolves when the answer is complete, lost (then the lost responses are
 * delivered as errors) or the transport closed. Never rejects.
 */
export async function consumeAnswer(core: ClientCore, response: Response, requestIds: readonly JsonRpcId[], options: AnswerOptions = {}): Promise<void> {
  const pending = new Set(requestIds);
  try {
    if (isEventStream(response)) return await consumeStream(core, response, pending, options);
    return await consumeJson(core, response, pending, options);
  } catch (error) {
    await discardBody(response);
    if (!core.signal.aborted && options.signal?.aborted !== true) core.fault(error);
    settle(core, pending, error, options);
  }
}
