/**
 * Prompts and completions through the gateway: `prompts/list` from the catalog,
 * `prompts/get` routed like tools (exact table, then a unique bare name), and
 * `completion/complete` routed by its reference (a prompt's exposed name, or a template's
 * namespaced URI template).
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { CompleteRequestParams, CompleteResult, GetPromptResult, Prompt } from "@proto/mcp-protocol";
import type { RequestContext } from "@proto/mcp-server";
import { createPageSource, paginate } from "@proto/mcp-server";
import type { PromptEntry } from "./catalog";
import { capabilityRefusal, classifyFailure, unavailableFailure } from "./classify";
import { failureError, unknownError } from "./errors";
import type { Pool } from "./pool";
import type { GatewaySettings } from "./settings";
import { parseExposedUri } from "./uris";
import { withoutChildStamps } from "./child-result";

const PAGE_SIZE = 1000;

function record(params: JsonRpcParams | undefined): { [key: string]: unknown } {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as { [key: string]: unknown }) : {};
}

/** `prompts/list`. */
export async function listPrompts(pool: Pool, params: JsonRpcParams | undefined): Promise<{ prompts: Prompt[]; nextCursor?: string }> {
  await pool.ready();
  const prompts = pool.catalog().prompts.map((p) => p.prompt);
  const page = paginate(createPageSource(prompts, (p) => p.name), record(params).cursor, PAGE_SIZE);
  return page.nextCursor === undefined ? { prompts: [...page.items] } : { prompts: [...page.items], nextCursor: page.nextCursor };
}

function resolvePrompt(pool: Pool, settings: GatewaySettings, name: string): PromptEntry {
  const catalog = pool.catalog();
  const exact = catalog.promptByName.get(name);
  if (exact !== undefined) return exact;
  const bare = settings.bareNames === "unique" ? (catalog.promptsByOriginal.get(name) ?? []) : [];
  if (bare.length === 1) return bare[0] as PromptEntry;
  throw unknownError("prompt", name, bare.map((p) => p.exposed), bare.length > 1);
}

async function onChild<T>(pool: Pool, ctx: RequestContext, childName: string, method: string, what: { prompt?: string }, op: (client: import("@proto/mcp-client").Client, signal: AbortSignal) => Promise<T>): Promise<T> {
  const child = pool.children.get(childName);
  const site = { child: childName, method, ...(what.prompt === undefined ? {} : { tool: what.prompt }) };
  if (child === undefined || child.state === "failed" || child.state === "disabled") throw failureError(unavailableFailure(site, `child "${childName}" is ${child?.state ?? "unknown"}`));
  const startedAt = performance.now();
  // A borrowed signal, not ctx.signal: the pool aborts it when a 2026-07-28 input round abandons this call.
  const watched = pool.cancels.borrow(ctx);
  try {
    return withoutChildStamps(await child.run((client) => pool.track(childName, ctx, () => op(client, watched.signal))));
  } catch (error) {
    const refusal = capabilityRefusal(error, childName);
    if (refusal !== undefined) throw refusal;
    const failure = classifyFailure(error, { ...site, startedAt, frameFault: child.frameFaultSince(startedAt), attempt: child.attempt });
    if (failure === undefined || ctx.signal.aborted) throw error;
    throw failureError(failure);
  } finally {
    pool.cancels.release(watched);
  }
}

/** `prompts/get`. */
export async function getPrompt(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined): Promise<GetPromptResult> {
  const p = record(params);
  await pool.ready();
  const entry = resolvePrompt(pool, settings, typeof p.name === "string" ? p.name : "");
  const args = typeof p.arguments === "object" && p.arguments !== null ? (p.arguments as { [name: string]: string }) : undefined;
  return onChild(pool, ctx, entry.child, "prompts/get", { prompt: entry.exposed }, (client, signal) => client.getPrompt(entry.name, args, { signal }));
}

/** Completes on the child, or answers no values when it does not complete (hosts ask while the user types). */
function completeOn(client: import("@proto/mcp-client").Client, params: CompleteRequestParams, signal: AbortSignal): Promise<CompleteResult> {
  if (client.server !== undefined && client.server.capabilities.completions === undefined) return Promise.resolve({ completion: { values: [] } });
  return client.complete(params, { signal });
}

/** `completion/complete` (no values from a child that declared no `completions`). */
export async function complete(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined): Promise<CompleteResult> {
  const p = record(params) as unknown as CompleteRequestParams;
  await pool.ready();
  const ref = p.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
  if (ref?.type === "ref/prompt" && typeof ref.name === "string") {
    const entry = resolvePrompt(pool, settings, ref.name);
    return onChild(pool, ctx, entry.child, "completion/complete", { prompt: entry.exposed }, (client, signal) => completeOn(client, { ...p, ref: { type: "ref/prompt", name: entry.name } }, signal));
  }
  if (ref?.type === "ref/resource" && typeof ref.uri === "string") {
    const route = parseExposedUri(settings.name, ref.uri, new Set(pool.children.keys()));
    if (route === undefined) throw unknownError("resource", ref.uri, [], false);
    return onChild(pool, ctx, route.child, "completion/complete", {}, (client, signal) => completeOn(client, { ...p, ref: { type: "ref/resource", uri: route.uri } }, signal));
  }
  throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, 'Invalid params: completion/complete needs ref { type: "ref/prompt", name } or { type: "ref/resource", uri }');
}
