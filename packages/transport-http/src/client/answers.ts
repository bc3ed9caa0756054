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
import { HttpClientError, HttpClientErrorCode } from "./http-error";
import { discardBody, readCappedBytes } from "./response-body";
import { isEventStream, runResumableStream } from "./resumable-stream";

function markAnswered(payload: JsonRpcPayload, pending: Set<JsonRpcId>): void {
  for (const message of Array.isArray(payload) ? payload : [payload]) {
    if (isResponse(message) && message.id !== null) pending.delete(message.id);
  }
}

function deliverTracked(core: ClientCore, result: DecodeResult, pending: Set<JsonRpcId>): boolean {
  if (result.ok) markAnswered(result.payload, pending);
  core.deliver(result);
  return pending.size === 0;
}

async function consumeJson(core: ClientCore, response: Response, pending: Set<JsonRpcId>): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await readCappedBytes(response, core.limits.maxMessageBytes);
  } catch (error) {
    if (!core.signal.aborted) core.fault(error);
    settleLost(core, pending, error);
    return;
  }
  deliverTracked(core, decode(bytes, core.limits), pending);
  if (pending.size > 0) {
    settleLost(
      core,
      pending,
      new HttpClientError(HttpClientErrorCode.BadResponse, "the server's JSON answer held no response for this request"),
    );
  }
}

async function consumeStream(core: ClientCore, response: Response, pending: Set<JsonRpcId>): Promise<void> {
  const outcome = await runResumableStream(response, {
    stream: "request",
    url: core.url,
    open: (lastEventId) =>
      core.request({ method: "GET", url: core.url, headers: core.getHeaders(lastEventId), signal: core.signal }),
    message: (data) => deliverTracked(core, decode(data, core.limits), pending),
    fault: (error) => core.fault(error),
    emit: (event) => core.emit(event),
    reconnect: core.reconnect,
    maxEventChars: core.limits.maxMessageBytes,
    signal: core.signal,
  });
  switch (outcome.kind) {
    case "complete":
    case "closed":
      return;
    case "unsupported":
      settleLost(
        core,
        pending,
        new HttpClientError(
          HttpClientErrorCode.StreamLost,
          "the server closed the answer stream early and refused to resume it (GET answered 405)",
          { status: 405 },
        ),
      );
      return;
    case "session-gone":
    case "failed":
      settleLost(core, pending, outcome.error);
  }
}

/**
 * Consumes the answer to a POST whose requests are `requestIds`, delivering every frame to
 * the sink. Resolves when the answer is complete, lost (then the lost responses are
 * delivered as errors) or the transport closed. Never rejects.
 */
export async function consumeAnswer(core: ClientCore, response: Response, requestIds: readonly JsonRpcId[]): Promise<void> {
  const pending = new Set(requestIds);
  try {
    if (isEventStream(response)) return await consumeStream(core, response, pending);
    return await consumeJson(core, response, pending);
  } catch (error) {
    await discardBody(response);
    if (!core.signal.aborted) core.fault(error);
    settleLost(core, pending, error);
  }
}
