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

function readRetry(params: JsonRpcParams | undefined): { responses: Record<string, unknown> | undefined; state: string | undefined } {
  const p = isRecord(params) ? params : {};
  const responses = p.inputResponses;
  const state = p.requestState;
  if (responses !== undefined && !isRecord(responses)) throw invalid("inputResponses must be an object keyed by input request");
  if (state !== undefined && typeof state !== "string") throw invalid("requestState must be the string the server sent");
  return { responses, state };
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

/**
 * The state of one round, created when the request starts and filled only when the handler
 * asks for input: a call that asks nothing allocates no collections, promises or timers.
 */
class Round implements InputRound {
  answers: Record<string, unknown> = NO_ANSWERS;
  private bound: Promise<StateBinding> | undefined;
  private asked: Record<string, InputRequest> | undefined;
  private askedCount = 0;
  private used: Set<string> | undefined;
  private consumed: Record<string, unknown> | undefined;
  private waiting: ((reason: Error) => void)[] | undefined;
  private count = 0;
  private stopped: Error | undefined;
  /** Ends the round (set while the handler runs asynchronously). */
  private end: (() => void) | undefined;
  private scheduled = false;

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
    const chosen = (options as { inputKey?: unknown } | undefined)?.inputKey;
    const n = this.count++;
    const key = typeof chosen === "string" ? chosen : `${kind}-${n}`;
    const used = (this.used ??= new Set());
    if (key === "" || key.length > 128 || used.has(key)) {
      return Promise.reject(new TypeError(`inputKey ${JSON.stringify(key)} must be 1-128 characters and unique within the call`));
    }
    used.add(key);
    if (Object.prototype.hasOwnProperty.call(this.answers, key)) {
      try {
        const answer = checkAnswer(method, key, this.answers[key]);
        (this.consumed ??= Object.create(null) as Record<string, unknown>)[key] = answer;
        return Promise.resolve(answer);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (this.askedCount >= MAX_INPUTS_PER_ROUND) return Promise.reject(new TypeError(`more than ${MAX_INPUTS_PER_ROUND} inputs in one round`));
    const p = wireParams(method, params);
    (this.asked ??= {})[key] = (p === undefined ? { method } : { method, params: p }) as InputRequest;
    this.askedCount++;
    if (!this.scheduled) {
      this.scheduled = true;
      setTimeout(() => this.end?.(), 0);
    }
    if (this.stopped !== undefined) return Promise.reject(this.stopped);
    return new Promise((_resolve, reject) => (this.waiting ??= []).push(reject));
  }

  /** Runs the handler: its result, or (once it has asked and the turn is over) an `input_required` result. */
  run(): unknown {
    const value = this.input.run(this.input.ctx);
    if (!isThenable(value)) return value;
    // The first of the handler's outcome and the end of the round wins (the handler's signal
    // stays the request's: a signal of its own per request would cost every call an AbortController).
    return new Promise((resolve, reject) => {
      let settled = false;
      const once = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        settle();
      };
      value.then(
        (v) => once(() => resolve(v)),
        (error: unknown) => once(() => reject(error)),
      );
      this.end = () => once(() => resolve(this.inputRequired()));
    });
  }

  private async inputRequired(): Promise<InputRequiredResult> {
    // Normal control flow, not a fault: a ProtocolError so the tool layer passes it through without
    // reporting a thrown tool; it never reaches the wire (the round's answer is the input_required result).
    const stopped = new ProtocolError(JsonRpcErrorCode.InternalError, "the round ended: the client is asked for input");
    this.stopped = stopped;
    for (const reject of (this.waiting ?? []).splice(0)) reject(stopped);
    return {
      resultType: ResultType.InputRequired,
      inputRequests: this.asked ?? {},
      requestState: await this.input.codec.seal(await this.binding(), { answers: this.consumed ?? (Object.create(null) as Record<string, unknown>) }),
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
  const { responses, state } = readRetry(input.params);
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
