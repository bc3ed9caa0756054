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
 * signal, the total timeout (the call's or the client's) and the connection span every round,
 * the time the client's own handlers take included: any of them ends the call at once (a handler
 * that ignores its signal is not waited for), and the handlers' signal tells them it ended.
 *
 * -32020 (HeaderMismatch): the tool list is fetched again (so the transport learns the current
 * `x-mcp-header` bindings) and the request is retried once.
 */
import { JsonRpcErrorCode, JsonRpcFaultCode, JsonRpcError, RequestError } from "@proto/jsonrpc";
import type { RequestOptions } from "./request-options";
import type { InputResponder } from "./server-requests";
import { McpErrorCode, RequestMethod, ResultType } from "@proto/mcp-protocol";
import { ClientFaultCode, McpClientError } from "./errors";

/** Default bound on input rounds of one call (the TS SDK's client caps at 10 too). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Most input requests one round may carry. */
const MAX_INPUT_REQUESTS = 64;

type Params = { readonly [key: string]: unknown };

/** What a modern session's calls need from the client: built once per session, shared by its calls. */
export interface ModernWire<Extra> {
  /** Sends one round of `method` (the envelope stamped, the modern result check applied). */
  readonly send: (method: string, params: Params | undefined, options: RequestOptions | undefined, extra: Extra | undefined) => Promise<unknown>;
  /** Answers one input request. */
  readonly respond: InputResponder;
  /** Fetches the tool list again after a -32020. */
  readonly relist: () => Promise<unknown>;
  readonly maxRounds: number;
  /** The client's default total cap in ms (0: none), for calls that set no `maxTotalTimeoutMs`. */
  readonly maxTotalTimeoutMs: number;
  /** Aborted once the session's connection closed. */
  readonly closed: AbortSignal;
}

/** One call in progress (the slow path: input rounds or a header-mismatch retry). */
interface ModernCall<Extra> {
  readonly wire: ModernWire<Extra>;
  readonly method: string;
  readonly params: Params | undefined;
  readonly options: RequestOptions | undefined;
  readonly extra: Extra | undefined;
  /** When the call began (performance.now()), when a total timeout spans its rounds. */
  readonly began: number;
  /** The total cap in ms (0: none). */
  readonly total: number;
}

/** The outcome of one round. */
type Outcome = { readonly result: unknown } | { readonly error: unknown };

function isRecord(value: unknown): value is Params {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

async function answerRound<E>(call: ModernCall<E>, requests: Params, signal: AbortSignal): Promise<Params> {
  const entries = Object.entries(requests);
  if (entries.length > MAX_INPUT_REQUESTS) {
    throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${call.method}" result asks for ${entries.length} inputs at once; at most ${MAX_INPUT_REQUESTS} are answered`);
  }
  const answered = await Promise.all(entries.map(async ([key, request]) => {
    if (!isRecord(request) || typeof request.method !== "string" || (request.params !== undefined && !isRecord(request.params))) {
      throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${call.method}" result has a malformed input request "${key}" (it needs a string method and object params)`, { detail: request });
    }
    try {
      return [key, await call.wire.respond(request.method, (request.params ?? {}) as Params, signal)] as const;
    } catch (error) {
      // The checks of the input request itself (the same as for a 2025 server request): the server's fault, not a -32602 of the server's.
      if (!(error instanceof JsonRpcError && error.code === JsonRpcErrorCode.InvalidParams)) throw error;
      throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${call.method}" result has an input request "${key}" this client cannot answer: ${error.message}`, { cause: error, detail: request });
    }
  }));
  return Object.fromEntries(answered);
}

/** The total cap of a call in ms (0: none): its own `maxTotalTimeoutMs`, else the client's. */
function totalOf<E>(wire: ModernWire<E>, options: RequestOptions | undefined): number {
  const ms = options?.maxTotalTimeoutMs ?? wire.maxTotalTimeoutMs;
  return Number.isFinite(ms) && ms <= 2_147_483_647 ? ms : 0;
}

/**
 * What ends a call between its requests (while the client's handlers answer, or the tool list
 * is fetched again): the caller's signal, the total cap, the connection closing. `signal` is
 * what the handlers get; `stopped` rejects with the fault once one of them happened.
 */
interface Exchange {
  readonly signal: AbortSignal;
  readonly stopped: Promise<never>;
  /** Throws the fault when the call was stopped. */
  check(): void;
  /** Ends the exchange: the timer and listeners go; after a failure, handlers still running are told. */
  end(failed: boolean): void;
}

function startExchange<E>(call: ModernCall<E>): Exchange {
  const { method, options, wire } = call;
  const controller = new AbortController();
  // The faults are made when they happen (an error captures its stack), not per call.
  const stop = (fault: () => RequestError) => (): void => {
    if (!controller.signal.aborted) controller.abort(fault());
  };
  const caller = options?.signal;
  const onAbort = stop(() => new RequestError(JsonRpcFaultCode.Aborted, method, `Request "${method}" was aborted while the client answered the server's input requests`, { cause: caller?.reason }));
  const onClose = stop(() => new RequestError(JsonRpcFaultCode.Closed, method, `The connection closed while the client answered the server's input requests of "${method}"; call it again (a client with a \`transport\` factory reconnects)`));
  const timer = call.total === 0 ? undefined : setTimeout(
    stop(() => new RequestError(JsonRpcFaultCode.Timeout, method, `Request "${method}" exceeded maxTotalTimeoutMs (${call.total} ms) while the client answered the server's input requests; raise maxTotalTimeoutMs if its handlers may take longer`)),
    Math.max(0, call.total - (performance.now() - call.began)));
  caller?.addEventListener("abort", onAbort, { once: true });
  wire.closed.addEventListener("abort", onClose, { once: true });
  if (caller?.aborted === true) onAbort();
  if (wire.closed.aborted) onClose();
  const stopped = new Promise<never>((_, reject) => {
    const fail = (): void => reject(controller.signal.reason);
    if (controller.signal.aborted) fail();
    else controller.signal.addEventListener("abort", fail, { once: true });
  });
  stopped.catch(() => {});
  return {
    signal: controller.signal,
    stopped,
    check() {
      if (controller.signal.aborted) throw controller.signal.reason;
    },
    end(failed) {
      if (timer !== undefined) clearTimeout(timer);
      caller?.removeEventListener("abort", onAbort);
      wire.closed.removeEventListener("abort", onClose);
      if (failed && !controller.signal.aborted) controller.abort(new RequestError(JsonRpcFaultCode.Aborted, method, `Request "${method}" failed while the client answered the server's input requests`));
    },
  };
}

/** Waits for `work` unless the exchange stops first (then rejects with its fault). */
function orStop<T>(exchange: Exchange, work: Promise<T>): Promise<T> {
  return Promise.race([work, exchange.stopped]);
}

/** The options of the next round: the same signal and progress callback, the total cap shortened by what already passed. */
function nextOptions(options: RequestOptions | undefined, total: number, began: number): RequestOptions | undefined {
  if (total === 0) return options;
  const left = Math.max(1, total - (performance.now() - began));
  return { ...options, maxTotalTimeoutMs: left };
}

function isInputRequired(result: unknown): result is Params {
  return isRecord(result) && result.resultType === ResultType.InputRequired;
}

function isHeaderMismatch(error: unknown): boolean {
  return error instanceof JsonRpcError && error.code === McpErrorCode.HeaderMismatch;
}

/**
 * Runs one modern call to its complete result. The common case (one round, complete) costs one
 * send and one check; the loop's state (a signal, the round count, the retry flag) is set up
 * only when the server asks for input or a -32020 comes back.
 */
export function sendModern<Extra>(wire: ModernWire<Extra>, method: string, params: Params | undefined, options: RequestOptions | undefined, extra: Extra | undefined): Promise<unknown> {
  const total = totalOf(wire, options);
  const began = total === 0 ? 0 : performance.now();
  let first: Promise<unknown>;
  try {
    first = wire.send(method, params, options, extra);
  } catch (error) {
    return Promise.reject(error);
  }
  // One `then`, not an async frame: this runs on every modern request.
  return first.then(
    (result: unknown) => (isInputRequired(result) ? continueCall({ wire, method, params, options, extra, began, total }, { result }) : result),
    (error: unknown) => {
      if (!isHeaderMismatch(error)) throw error;
      return continueCall({ wire, method, params, options, extra, began, total }, { error });
    },
  );
}

/** Goes on from a first outcome that asks for more: input rounds, and one retry after a -32020. */
async function continueCall<E>(call: ModernCall<E>, first: Outcome): Promise<unknown> {
  const exchange = startExchange(call);
  let failed = true;
  try {
    const result = await runRounds(call, first, exchange);
    failed = false;
    return result;
  } finally {
    exchange.end(failed);
  }
}

async function runRounds<E>(call: ModernCall<E>, first: Outcome, exchange: Exchange): Promise<unknown> {
  const { wire, method, params, options } = call;
  let round = 0;
  let retried = false;
  let current = params;
  let outcome = first;
  for (;;) {
    if ("error" in outcome) {
      if (retried || !isHeaderMismatch(outcome.error)) throw outcome.error;
      retried = true;
      if (method === RequestMethod.ToolsCall) await orStop(exchange, wire.relist());
    } else {
      const { result } = outcome;
      if (!isInputRequired(result)) return result;
      round += 1;
      if (round > wire.maxRounds) {
        throw new McpClientError(ClientFaultCode.InputRoundsExceeded,
          `The server kept asking for input on "${method}" past ${wire.maxRounds} rounds; the call was abandoned (raise maxInputRounds if the server legitimately needs more)`);
      }
      exchange.check();
      const inputResponses = isRecord(result.inputRequests) ? await orStop(exchange, answerRound(call, result.inputRequests, exchange.signal)) : undefined;
      const { inputResponses: _old, requestState: _state, ...base } = params ?? {};
      current = {
        ...base,
        ...(inputResponses === undefined ? {} : { inputResponses }),
        ...(typeof result.requestState === "string" ? { requestState: result.requestState } : {}),
      };
    }
    exchange.check();
    outcome = await wire.send(method, current, nextOptions(options, call.total, call.began), call.extra).then((result: unknown) => ({ result }), (error: unknown) => ({ error }));
  }
}
