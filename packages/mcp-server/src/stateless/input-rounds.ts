/**
 * Multi-round input from unchanged handler code (MCP 2026-07-28 basic/patterns/mrtr): on a
 * modern `tools/call`, `prompts/get` or `resources/read`, the context's requests to the client
 * (`ctx.sample`, `ctx.elicit`, `ctx.elicitUrl`, `ctx.listRoots` all go through `ctx.request`)
 * are answered from the answers gathered so far; the first one that has none ends the round
 * with an `input_required` result asking for it (and for every other one the handler asks in
 * the same turn of the event loop). The retry runs the handler again from the start with the
 * answers, so a handler is re-entered once per round: its side effects before the last input
 * run again (make them idempotent, or do them after the inputs).
 *
 * Keys are `options.inputKey`, else `<kind>-<n>` in call order. A request's `inputResponses`
 * answer the keys the handler asks for (unknown keys are ignored, a malformed answer is -32602);
 * the answers a round used travel to the next round in the signed `requestState`.
 */
import { JsonRpcErrorCode } from "@proto/jsonrpc";
import type { JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Principal, RequestOptions } from "@proto/jsonrpc";
import { RequestMethod, ResultType } from "@proto/mcp-protocol";
import type { InputRequest, InputRequiredResult } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import { ProtocolError } from "../protocol-error";
import { paramsDigest } from "./request-state";
import type { RequestStateCodec, StateBinding, StatePayload } from "./request-state";

const KIND: { readonly [method: string]: string } = {
  [RequestMethod.SamplingCreateMessage]: "sample",
  [RequestMethod.ElicitationCreate]: "elicit",
  [RequestMethod.RootsList]: "roots",
};

/** Most input requests one round may ask. */
export const MAX_INPUTS_PER_ROUND = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A `ProtocolError`: a malformed answer rejects the handler's input request, and must still fail the request if the handler lets it escape. */
function invalid(message: string): JsonRpcError {
  return new ProtocolError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${message}`);
}

/** What a handler's input requests reject with once its round ended with `input_required` (`isInputRoundEnd`). */
class InputRoundEnd extends ProtocolError {}

/**
 * True for the rejection a handler's `ctx.request` (and `ctx.sample`, `ctx.elicit`, ...) gets
 * when its 2026-07-28 input round ended: the request was answered `input_required`, and the
 * client's retry runs the handler again from the start, so this run's work can stop (a
 * gateway cancels the call it forwarded for it).
 */
export function isInputRoundEnd(error: unknown): boolean {
  return error instanceof InputRoundEnd;
}

/** Checks the shape of one answer; -32602 when it cannot be the result of `method` (MRTR rounds and task input responses). */
export function checkAnswer(method: string, key: string, value: unknown): unknown {
  if (!isRecord(value)) throw invalid(`inputResponses["${key}"] must be an object`);
  const ok =
    method === RequestMethod.ElicitationCreate
      ? value.action === "accept" || value.action === "decline" || value.action === "cancel"
      : method === RequestMethod.RootsList
        ? Array.isArray(value.roots)
        : (value.role === "user" || value.role === "assistant") && typeof value.model === "string" && value.content !== undefined;
  if (!ok) throw invalid(`inputResponses["${key}"] is not a valid ${method} result`);
  return value;
}

/** The wire params of an input request: no `elicitationId` (2026-07-28 URL elicitation), no `_meta` task fields. */
function wireParams(method: string, params: JsonRpcParams | undefined): JsonRpcParams | undefined {
  if (method !== RequestMethod.ElicitationCreate || !isRecord(params) || !("elicitationId" in params)) return params;
  const { elicitationId: _dropped, ...rest } = params;
  return rest as JsonRpcParams;
}

/** What one round needs. */
export interface RoundInput {
  readonly method: string;
  readonly params: JsonRpcParams | undefined;
  readonly ctx: RequestContext;
  readonly principal: Principal | undefined;
  readonly codec: RequestStateCodec;
  /** Runs the handler with the prepared context. */
  readonly run: (ctx: RequestContext) => unknown;
}

/** Where the request's `ctx.request` finds its round (the request's `ModernHooks`). */
export interface RoundHost {
  round: InputRound | undefined;
}

/** One round of one request: what `ctx.request` becomes (sampling, elicitation, roots). */
export interface InputRound {
  request(method: string, params: JsonRpcParams | undefined, options: RequestOptions | undefined): Promise<unknown>;
}

const NO_ANSWERS: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** What a round keeps once the handler calls `ctx.request` (a call that asks nothing has none of it). */
class Asks {
  /** Requests made so far (answered or not), for the `<kind>-<n>` keys. */
  count = 0;
  readonly used = new Set<string>();
  consumed: Record<string, unknown> | undefined;
  asked: Record<string, InputRequest> | undefined;
  askedCount = 0;
  waiting: ((reason: Error) => void)[] | undefined;
  stopped: Error | undefined;
  scheduled = false;
}

/** The timer's end of `round` (a function of the module: no closure per round). */
function endRound(round: Round): void {
  round.end();
}

/**
 * The answer a round ends with, made only if it is used: resolving the request's promise with
 * it after the handler settled is a no-op (a promise is resolved once), so the waiting
 * requests are rejected and the state sealed only when the end of the round wins.
 */
class Ending implements PromiseLike<InputRequiredResult> {
  constructor(private readonly round: Round) {}

  then<A = InputRequiredResult, B = never>(
    onfulfilled?: ((value: InputRequiredResult) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    return this.round.inputRequired().then(onfulfilled, onrejected);
  }
}

/**
 * The state of one round, created when the request starts and filled only when the handler
 * asks for input: a call that asks nothing allocates no collections, timers or closures, and
 * an async handler's promise gets one promise around it (the race with the end of the round).
 */
class Round implements InputRound {
  answers: Record<string, unknown> = NO_ANSWERS;
  private bound: Promise<StateBinding> | undefined;
  private asks: Asks | undefined;
  /** Resolves the request's promise (set while an async handler runs): its first call wins. */
  private resolve: ((value: unknown) => void) | undefined;

  constructor(private readonly input: RoundInput) {}

  binding(): Promise<StateBinding> {
    const { input } = this;
    return (this.bound ??= paramsDigest(input.params).then((digest) => ({ method: input.method, digest, principal: input.principal?.subject ?? "" })));
  }

  request(method: string, params: JsonRpcParams | undefined, options: RequestOptions | undefined): Promise<unknown> {
    const kind = KIND[method];
    if (kind === undefined) {
      return Promise.reject(new TypeError(`ctx.request("${method}"): under 2026-07-28 a server sends no requests; only sampling, elicitation and roots become input requests`));
    }
    const asks = (this.asks ??= new Asks());
    const chosen = (options as { inputKey?: unknown } | undefined)?.inputKey;
    const n = asks.count++;
    const key = typeof chosen === "string" ? chosen : `${kind}-${n}`;
    const used = asks.used;
    if (key === "" || key.length > 128 || used.has(key)) {
      return Promise.reject(new TypeError(`inputKey ${JSON.stringify(key)} must be 1-128 characters and unique within the call`));
    }
    used.add(key);
    if (Object.prototype.hasOwnProperty.call(this.answers, key)) {
      try {
        const answer = checkAnswer(method, key, this.answers[key]);
        (asks.consumed ??= Object.create(null) as Record<string, unknown>)[key] = answer;
        return Promise.resolve(answer);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (asks.askedCount >= MAX_INPUTS_PER_ROUND) return Promise.reject(new TypeError(`more than ${MAX_INPUTS_PER_ROUND} inputs in one round`));
    const p = wireParams(method, params);
    (asks.asked ??= {})[key] = (p === undefined ? { method } : { method, params: p }) as InputRequest;
    asks.askedCount++;
    if (!asks.scheduled) {
      asks.scheduled = true;
      setTimeout(endRound, 0, this);
    }
    if (asks.stopped !== undefined) return Promise.reject(asks.stopped);
    return new Promise((_resolve, reject) => (asks.waiting ??= []).push(reject));
  }

  /** Runs the handler: its result, or (once it has asked and the turn is over) an `input_required` result. */
  run(): unknown {
    const value = this.input.run(this.input.ctx);
    if (!isThenable(value)) return value;
    // The first of the handler's outcome and the end of the round wins: the promise's own
    // resolving functions settle it once (the handler's signal stays the request's: a signal of
    // its own per request would cost every call an AbortController).
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      value.then(resolve, reject);
    });
  }

  /** The round's turn is over (the timer of the first input asked): an async handler still running is answered `input_required`. */
  end(): void {
    this.resolve?.(new Ending(this));
  }

  /** The round's `input_required` result (through `Ending` only): rejects the requests still waiting, seals the answers used. */
  async inputRequired(): Promise<InputRequiredResult> {
    // Normal control flow, not a fault: a ProtocolError so the tool layer passes it through without
    // reporting a thrown tool; it never reaches the wire (the round's answer is the input_required result).
    const asks = this.asks as Asks;
    const stopped = new InputRoundEnd(JsonRpcErrorCode.InternalError, "the round ended: the client is asked for input");
    asks.stopped = stopped;
    for (const reject of (asks.waiting ?? []).splice(0)) reject(stopped);
    return {
      resultType: ResultType.InputRequired,
      inputRequests: asks.asked ?? {},
      requestState: await this.input.codec.seal(await this.binding(), { answers: asks.consumed ?? (Object.create(null) as Record<string, unknown>) }),
    };
  }
}

async function openState(round: Round, codec: RequestStateCodec, state: string, answers: Record<string, unknown>): Promise<void> {
  const opened: StatePayload = await codec.open(state, await round.binding());
  // answers of earlier rounds are signed: they win over a resent response with the same key
  for (const [key, value] of Object.entries(opened.answers)) answers[key] = value;
  round.answers = answers;
}

/**
 * Runs one round: the handler's result (synchronous when the handler is and nothing was
 * asked), or an `input_required` result. `host.round` routes the context's requests here.
 */
export function runRound(input: RoundInput, host: RoundHost): unknown {
  // read in place: a first round (neither field) allocates nothing for them
  const params = input.params;
  const p = isRecord(params) ? params : undefined;
  const responses = p?.inputResponses;
  const state = p?.requestState;
  if (responses !== undefined && !isRecord(responses)) throw invalid("inputResponses must be an object keyed by input request");
  if (state !== undefined && typeof state !== "string") throw invalid("requestState must be the string the server sent");
  const round = new Round(input);
  host.round = round;
  if (responses === undefined && state === undefined) return round.run();
  const answers = Object.create(null) as Record<string, unknown>;
  if (responses !== undefined) for (const [key, value] of Object.entries(responses)) answers[key] = value;
  if (state === undefined) {
    round.answers = answers;
    return round.run();
  }
  return openState(round, input.codec, state, answers).then(() => round.run());
}
