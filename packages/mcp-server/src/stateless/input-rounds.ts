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
 * Keys are `<kind>-<n>` in call order; answers of earlier rounds travel in the signed
 * `requestState`. Unknown keys are ignored; a malformed answer is -32602.
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

/** Checks the shape of one answer; -32602 when it cannot be the result of `method`. */
function checkAnswer(method: string, key: string, value: unknown): unknown {
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

async function gather(input: RoundInput, binding: () => Promise<StateBinding>): Promise<Record<string, unknown>> {
  const { responses, state } = readRetry(input.params);
  const answers = Object.create(null) as Record<string, unknown>;
  if (state === undefined) return answers;
  const opened: StatePayload = await input.codec.open(state, await binding());
  Object.assign(answers, opened.answers);
  for (const key of opened.asked) if (responses !== undefined && Object.prototype.hasOwnProperty.call(responses, key)) answers[key] = responses[key];
  return answers;
}

/** Runs one round: the handler's result, or an `input_required` result. */
export async function runRound(input: RoundInput): Promise<unknown> {
  let bound: Promise<StateBinding> | undefined;
  const binding = (): Promise<StateBinding> =>
    (bound ??= paramsDigest(input.params).then((digest) => ({ method: input.method, digest, principal: input.principal?.subject ?? "" })));
  const answers = await gather(input, binding);
  const asked: Record<string, InputRequest> = {};
  const stop = new AbortController();
  let count = 0;
  let ended: (() => void) | undefined;
  const roundEnd = new Promise<void>((resolve) => (ended = resolve));
  let scheduled = false;
  const ctx = input.ctx as RequestContext & { request: RequestContext["request"] };
  Object.defineProperty(ctx, "signal", { value: AbortSignal.any([input.ctx.signal, stop.signal]), configurable: true, enumerable: true });
  ctx.request = (method, params) => {
    const kind = KIND[method];
    if (kind === undefined) {
      return Promise.reject(new TypeError(`ctx.request("${method}"): under 2026-07-28 a server sends no requests; only sampling, elicitation and roots become input requests`));
    }
    const key = `${kind}-${count++}`;
    if (Object.prototype.hasOwnProperty.call(answers, key)) {
      try {
        return Promise.resolve(checkAnswer(method, key, answers[key]));
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
    return new Promise((_resolve, reject) => stop.signal.addEventListener("abort", () => reject(stop.signal.reason), { once: true }));
  };
  const handled = Promise.resolve().then(() => input.run(ctx));
  handled.catch(() => undefined);
  const first = await Promise.race([handled.then((value) => ({ done: true as const, value })), roundEnd.then(() => ({ done: false as const }))]);
  if (first.done) return first.value;
  stop.abort(new Error("the round ended: the client is asked for input"));
  const result: InputRequiredResult = {
    resultType: ResultType.InputRequired,
    inputRequests: asked,
    requestState: await input.codec.seal(await binding(), { answers, asked: Object.keys(asked) }),
  };
  return result;
}
