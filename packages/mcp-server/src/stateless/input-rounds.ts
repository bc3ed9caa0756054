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
import { ErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, Principal } from "@proto/jsonrpc";
import { RequestMethod, ResultType } from "@proto/mcp-protocol";
import type { InputRequest, InputRequiredResult } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
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

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`);
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

function gather(input: RoundInput, binding: () => Promise<StateBinding>): Record<string, unknown> | Promise<Record<string, unknown>> {
  const { responses, state } = readRetry(input.params);
  const answers = Object.create(null) as Record<string, unknown>;
  if (responses !== undefined) for (const [key, value] of Object.entries(responses)) answers[key] = value;
  if (state === undefined) return answers;
  return open(input, state, binding, answers);
}

async function open(input: RoundInput, state: string, binding: () => Promise<StateBinding>, answers: Record<string, unknown>): Promise<Record<string, unknown>> {
  const opened: StatePayload = await input.codec.open(state, await binding());
  // answers of earlier rounds are signed: they win over a resent response with the same key
  for (const [key, value] of Object.entries(opened.answers)) answers[key] = value;
  return answers;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Runs one round: the handler's result, or an `input_required` result (synchronous when nothing waits). */
export function runRound(input: RoundInput): unknown {
  let bound: Promise<StateBinding> | undefined;
  const binding = (): Promise<StateBinding> =>
    (bound ??= paramsDigest(input.params).then((digest) => ({ method: input.method, digest, principal: input.principal?.subject ?? "" })));
  const answers = gather(input, binding);
  return isThenable(answers) ? answers.then((a) => round(input, a, binding)) : round(input, answers, binding);
}

function round(input: RoundInput, answers: Record<string, unknown>, binding: () => Promise<StateBinding>): unknown {
  const asked: Record<string, InputRequest> = {};
  // When the round ends, the inputs the handler waits on reject; its signal stays the request's
  // (a signal of its own per request would cost every modern call an AbortController).
  let stopped: Error | undefined;
  const waiting: ((reason: Error) => void)[] = [];
  let count = 0;
  let ended: (() => void) | undefined;
  const roundEnd = new Promise<void>((resolve) => (ended = resolve));
  let scheduled = false;
  const ctx = input.ctx as RequestContext & { request: RequestContext["request"] };
  const used = new Set<string>();
  const consumed = Object.create(null) as Record<string, unknown>;
  ctx.request = (method, params, options) => {
    const kind = KIND[method];
    if (kind === undefined) {
      return Promise.reject(new TypeError(`ctx.request("${method}"): under 2026-07-28 a server sends no requests; only sampling, elicitation and roots become input requests`));
    }
    const chosen = (options as { inputKey?: unknown } | undefined)?.inputKey;
    const n = count++;
    const key = typeof chosen === "string" ? chosen : `${kind}-${n}`;
    if (key === "" || key.length > 128 || used.has(key)) {
      return Promise.reject(new TypeError(`inputKey ${JSON.stringify(key)} must be 1-128 characters and unique within the call`));
    }
    used.add(key);
    if (Object.prototype.hasOwnProperty.call(answers, key)) {
      try {
        const answer = checkAnswer(method, key, answers[key]);
        consumed[key] = answer;
        return Promise.resolve(answer);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    if (Object.keys(asked).length >= MAX_INPUTS_PER_ROUND) return Promise.reject(new TypeError(`more than ${MAX_INPUTS_PER_ROUND} inputs in one round`));
    const p = wireParams(method, params);
    asked[key] = (p === undefined ? { method } : { method, params: p }) as InputRequest;
    if (!scheduled) {
      scheduled = true;
      setTimeout(() => ended?.(), 0);
    }
    if (stopped !== undefined) return Promise.reject(stopped);
    return new Promise((_resolve, reject) => waiting.push(reject));
  };
  const value = input.run(ctx);
  if (!isThenable(value) && !scheduled) return value;
  const handled = Promise.resolve(value);
  handled.catch(() => undefined);
  const first = Promise.race([handled.then((v) => ({ done: true as const, value: v })), roundEnd.then(() => ({ done: false as const }))]);
  return first.then(async (settled) => {
    if (settled.done) return settled.value;
    stopped = new Error("the round ended: the client is asked for input");
    for (const reject of waiting.splice(0)) reject(stopped);
    const result: InputRequiredResult = {
      resultType: ResultType.InputRequired,
      inputRequests: asked,
      requestState: await input.codec.seal(await binding(), { answers: consumed }),
    };
    return result;
  });
}
