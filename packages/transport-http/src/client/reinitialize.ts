/**
 * Transparent re-initialization after the session expired (MCP 2025-11-25,
 * basic/transports, "Session Management": on a 404 for a request carrying `Mcp-Session-Id`,
 * the client MUST start a new session with a fresh `InitializeRequest`). The transport
 * replays the `initialize` request and `notifications/initialized` it saw go out; the
 * replayed answer is consumed here and never reaches the sink.
 */
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from "@proto/jsonrpc";
import { decode, encode, isFailure, isResponse } from "@proto/jsonrpc";
import type { ClientCore } from "./client-core";
import { HttpClientError, HttpClientFaultCode } from "./http-error";
import { protocolVersionOf } from "./lifecycle";
import { discardBody, errorFromResponse, readCappedBytes } from "./response-body";
import { isEventStream } from "./resumable-stream";
import { readSse } from "./sse-reader";

/** What a replay needs besides the core. */
export interface ReplayInput {
  readonly initialize: JsonRpcRequest;
  readonly initialized: JsonRpcNotification | undefined;
  /** A fresh id for the replayed request, so its answer cannot be mistaken for a caller's. */
  readonly id: string;
  /** Records the session id of the response (validating it). */
  captureSession(response: Response): void;
}

function findResponse(messages: readonly JsonRpcMessage[], id: string): JsonRpcResponse | undefined {
  for (const message of messages) if (isResponse(message) && message.id === id) return message;
  return undefined;
}

function messagesIn(data: string | Uint8Array, core: ClientCore): readonly JsonRpcMessage[] {
  const result = decode(data, core.limits);
  if (!result.ok) return [];
  return Array.isArray(result.payload) ? result.payload : [result.payload as JsonRpcMessage];
}

async function readInitializeAnswer(core: ClientCore, response: Response, id: string): Promise<JsonRpcResponse | undefined> {
  if (!isEventStream(response)) {
    return findResponse(messagesIn(await readCappedBytes(response, core.limits.maxMessageBytes), core), id);
  }
  if (!response.body) return undefined;
  let found: JsonRpcResponse | undefined;
  await readSse(
    response.body,
    {
      event(event) {
        if (event.data === "") return false;
        found = findResponse(messagesIn(event.data, core), id);
        return found !== undefined;
      },
      retry() {},
    },
    core.limits.maxMessageBytes,
  );
  return found;
}

function failed(why: string, details: { status?: number; cause?: unknown } = {}): HttpClientError {
  return new HttpClientError(
    HttpClientFaultCode.SessionExpired,
    `The session expired and re-initializing failed: ${why}. Reconnect, or check the server's session lifetime`,
    details,
  );
}

/**
 * Starts a new session by replaying `initialize` (and `notifications/initialized`). Resolves
 * with the new protocol version; rejects with `SESSION_EXPIRED` when the server refuses.
 * The caller has already cleared the old session id.
 */
export async function replayInitialization(core: ClientCore, input: ReplayInput): Promise<string | undefined> {
  const replay: JsonRpcRequest = { ...input.initialize, id: input.id };
  const post = (body: string, startsSession: boolean): Promise<Response> =>
    core.request({ method: "POST", url: core.url, headers: core.postHeaders(startsSession), body, signal: core.signal });

  const response = await post(encode(replay), true);
  if (!response.ok) {
    const error = await errorFromResponse("POST", core.url, response);
    throw failed(error.message, { status: response.status, cause: error });
  }
  input.captureSession(response);
  const answer = await readInitializeAnswer(core, response, input.id);
  if (answer === undefined) throw failed("the server's answer held no initialize result");
  if (isFailure(answer)) throw failed(`the server answered initialize with error ${answer.error.code} "${answer.error.message}"`);
  const version = protocolVersionOf(answer.result);
  core.protocolVersion = version ?? core.protocolVersion;
  if (input.initialized) {
    const ack = await post(encode(input.initialized), false);
    if (!ack.ok) {
      const error = await errorFromResponse("POST", core.url, ack);
      throw failed(`notifications/initialized was refused: ${error.message}`, { status: ack.status, cause: error });
    }
    await discardBody(ack);
  }
  return version;
}
