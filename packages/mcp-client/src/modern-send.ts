/**
 * One call on the 2026-07-28 wire: the envelope on the request, the `resultType` rule, the
 * multi round-trip loop (basic/patterns/mrtr) and the header-mismatch retry
 * (basic/transports/streamable-http "Client Behavior").
 *
 * MRTR: an `input_required` result is answered by the client's own roots, sampling and
 * elicitation handlers (every input request of a round first, concurrently), then the request
 * is sent again, with a fresh JSON-RPC id, the `inputResponses` and the `requestState` echoed
 * byte-exact (omitted when none came). State lives in this one loop, never shared across calls.
 * The loop is bounded (`maxRounds`); a missing handler or a refusal ends the call. The caller's
 * signal and total timeout span every round.
 *
 * -32020 (HeaderMismatch): the tool list is fetched again (so the transport learns the current
 * `x-mcp-header` bindings) and the request is retried once.
 */
import { JsonRpcFaultCode, JsonRpcError, RequestError } from "@proto/jsonrpc";
import type { RequestOptions } from "./request-options";
import type { InputResponder } from "./server-requests";
import { McpErrorCode, RequestMethod, ResultType } from "@proto/mcp-protocol";
import { ClientFaultCode, McpClientError } from "./errors";

/** Default bound on input rounds of one call (the TS SDK's client caps at 10 too). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Most input requests one round may carry. */
const MAX_INPUT_REQUESTS = 64;

type Params = { readonly [key: string]: unknown };

/** What one modern call needs from the client. */
export interface ModernCall {
  /** Sends one round (the requester, with the modern result check). */
  readonly send: (params: Params | undefined, options: RequestOptions | undefined) => Promise<unknown>;
  /** Answers one input request. */
  readonly respond: InputResponder;
  /** Fetches the tool list again after a -32020. */
  readonly relist: () => Promise<unknown>;
  readonly method: string;
  readonly maxRounds: number;
}

function isRecord(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function answerRound(call: ModernCall, requests: Params, signal: AbortSignal): Promise<Params> {
  const entries = Object.entries(requests);
  if (entries.length > MAX_INPUT_REQUESTS) {
    throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${call.method}" result asks for ${entries.length} inputs at once; at most ${MAX_INPUT_REQUESTS} are answered`);
  }
  const answered = await Promise.all(entries.map(async ([key, request]) => {
    if (!isRecord(request) || typeof request.method !== "string" || (request.params !== undefined && !isRecord(request.params))) {
      throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${call.method}" result has a malformed input request "${key}" (it needs a string method and object params)`, { detail: request });
    }
    return [key, await call.respond(request.method, (request.params ?? {}) as Params, signal)] as const;
  }));
  return Object.fromEntries(answered);
}

/** Stops the loop when the caller aborted between rounds: the same `ABORTED` fault a pending request gets. */
function stopIfAborted(call: ModernCall, signal: AbortSignal): void {
  if (!signal.aborted) return;
  throw new RequestError(JsonRpcFaultCode.Aborted, call.method, `Request "${call.method}" was aborted while the client answered the server's input requests`, { cause: signal.reason });
}

/** Answers a round; a handler failing because the caller aborted ends the call as `ABORTED`. */
async function answerOrStop(call: ModernCall, requests: Params, signal: AbortSignal): Promise<Params> {
  try {
    return await answerRound(call, requests, signal);
  } catch (error) {
    stopIfAborted(call, signal);
    throw error;
  }
}

/** The options of the next round: the same signal and progress callback, the total timeout shortened by what already passed. */
function nextOptions(options: RequestOptions | undefined, began: number): RequestOptions | undefined {
  if (options?.maxTotalTimeoutMs === undefined || options.maxTotalTimeoutMs === 0) return options;
  const left = Math.max(1, options.maxTotalTimeoutMs - (performance.now() - began));
  return { ...options, maxTotalTimeoutMs: left };
}

/** Runs one modern call to its complete result. */
export async function sendModern(call: ModernCall, params: Params | undefined, options: RequestOptions | undefined): Promise<unknown> {
  const began = performance.now();
  const signal = options?.signal ?? new AbortController().signal;
  let round = 0;
  let retried = false;
  let current = params;
  for (;;) {
    let result: unknown;
    try {
      result = await call.send(current, nextOptions(options, began));
    } catch (error) {
      if (retried || !(error instanceof JsonRpcError) || error.code !== McpErrorCode.HeaderMismatch) throw error;
      retried = true;
      if (call.method === RequestMethod.ToolsCall) await call.relist();
      continue;
    }
    if (!isRecord(result) || result.resultType !== ResultType.InputRequired) return result;
    round += 1;
    if (round > call.maxRounds) {
      throw new McpClientError(ClientFaultCode.InputRoundsExceeded,
        `The server kept asking for input on "${call.method}" past ${call.maxRounds} rounds; the call was abandoned (raise maxInputRounds if the server legitimately needs more)`);
    }
    stopIfAborted(call, signal);
    const inputResponses = isRecord(result.inputRequests) ? await answerOrStop(call, result.inputRequests, signal) : undefined;
    stopIfAborted(call, signal);
    const { inputResponses: _old, requestState: _state, ...base } = params ?? {};
    current = {
      ...base,
      ...(inputResponses === undefined ? {} : { inputResponses }),
      ...(typeof result.requestState === "string" ? { requestState: result.requestState } : {}),
    };
  }
}
