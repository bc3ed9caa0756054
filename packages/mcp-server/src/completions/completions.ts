/**
 * The completions feature (MCP 2025-11-25, server/utilities/completion): `completion/complete`
 * for prompt arguments (`ref/prompt`) and resource template variables (`ref/resource`), with
 * the arguments already filled (`context.arguments`), at most 100 values with `total` and
 * `hasMore`. An unknown prompt or template is -32602; an argument with no completer gets no
 * values.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import { RequestMethod } from "@proto/mcp-protocol";
import type { CompleteResult } from "@proto/mcp-protocol";
import type { RequestContext } from "../context";
import type { Feature } from "../feature";
import type { Completer, CompletionReturn } from "./types";

/** The spec's cap on values in one completion result. */
export const MAX_COMPLETION_VALUES = 100;

/** Where completers come from: `null` when the prompt or template does not exist. */
export interface CompletionSources {
  prompt(name: string, argument: string): Completer | undefined | null;
  template(uriTemplate: string, variable: string): Completer | undefined | null;
  /** True when any completer exists (decides the `completions` capability). */
  any(): boolean;
}

interface Request {
  readonly ref: { readonly type: "ref/prompt"; readonly name: string } | { readonly type: "ref/resource"; readonly uri: string };
  readonly name: string;
  readonly value: string;
  readonly context: { readonly [name: string]: string };
}

function invalid(message: string): JsonRpcError {
  return new JsonRpcError(JsonRpcErrorCode.InvalidParams, message);
}

function parse(params: JsonRpcParams | undefined): Request {
  const p = (params !== undefined && !Array.isArray(params) ? params : {}) as Record<string, unknown>;
  const ref = p.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  const arg = p.argument as { name?: unknown; value?: unknown } | undefined;
  if (typeof arg?.name !== "string" || typeof arg.value !== "string") throw invalid("completion/complete needs argument: { name, value } (strings)");
  const given = (p.context as { arguments?: unknown } | undefined)?.arguments ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given) || !Object.values(given).every((v) => typeof v === "string")) {
    throw invalid("completion/complete: context.arguments must be an object of strings");
  }
  const context = given as Record<string, string>;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") return { ref: { type: "ref/prompt", name: ref.name }, name: arg.name, value: arg.value, context };
  if (ref?.type === "ref/resource" && typeof ref.uri === "string") return { ref: { type: "ref/resource", uri: ref.uri }, name: arg.name, value: arg.value, context };
  throw invalid('completion/complete needs ref: { type: "ref/prompt", name } or { type: "ref/resource", uri }');
}

function fromList(choices: readonly string[], value: string): string[] {
  const prefix = value.toLowerCase();
  return choices.filter((c) => c.toLowerCase().startsWith(prefix));
}

/** Caps `returned` at 100 values, keeping `total` and `hasMore` truthful. */
export function toCompleteResult(returned: CompletionReturn): CompleteResult {
  const page = Array.isArray(returned) ? { values: returned as readonly string[] } : (returned as Exclude<CompletionReturn, readonly string[]>);
  if (!Array.isArray(page?.values) || !page.values.every((v) => typeof v === "string")) {
    throw new TypeError("a completer must return strings, or { values: strings, total?, hasMore? }");
  }
  const values = page.values.slice(0, MAX_COMPLETION_VALUES);
  const total = page.total ?? page.values.length;
  const hasMore = page.hasMore ?? (page.values.length > values.length || total > values.length);
  const completion: { values: readonly string[]; total?: number; hasMore?: boolean } = { values };
  if (total !== values.length || page.total !== undefined) completion.total = total;
  if (hasMore) completion.hasMore = true;
  return { completion };
}

async function complete(sources: CompletionSources, params: JsonRpcParams | undefined, ctx: RequestContext): Promise<CompleteResult> {
  const request = parse(params);
  const completer =
    request.ref.type === "ref/prompt" ? sources.prompt(request.ref.name, request.name) : sources.template(request.ref.uri, request.name);
  if (completer === null) {
    throw invalid(
      request.ref.type === "ref/prompt" ? `Unknown prompt "${request.ref.name}"` : `Unknown resource template "${request.ref.uri}"`,
    );
  }
  if (completer === undefined) return { completion: { values: [] } };
  if (Array.isArray(completer)) return toCompleteResult(fromList(completer as readonly string[], request.value));
  const fn = completer as Exclude<Completer, readonly string[]>;
  return toCompleteResult(await fn(request.value, { arguments: request.context, ctx }));
}

/** Creates the completions feature over prompts' and templates' completers. */
export function createCompletions(sources: CompletionSources): Feature {
  return {
    name: "completions",
    capabilities: () => (sources.any() ? { completions: {} } : undefined),
    requests: { [RequestMethod.CompletionComplete]: (params, ctx) => complete(sources, params, ctx) },
  };
}
