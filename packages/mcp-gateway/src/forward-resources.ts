/**
 * Resources through the gateway: `resources/list` and `resources/templates/list` from the
 * catalog (views only to sessions that negotiated MCP Apps), and `resources/read`,
 * `resources/subscribe`, `resources/unsubscribe` routed by the namespaced URI, or by a raw
 * child URI when exactly one child serves it (views read their own resources by the child's
 * URI). Reads of views are served whatever the session negotiated (hosts that render without
 * declaring the extension exist); contents come back with rewritten URIs and no dedicated
 * domain. Child failures are -32603 with the failure as `data` (`M-UI-004` for views).
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { ReadResourceResult, Resource, ResourceTemplate } from "@proto/mcp-protocol";
import { dropUiDomain, isUiUri, rewriteReadResult } from "@proto/mcp-apps";
import type { Client } from "@proto/mcp-client";
import type { RequestContext } from "@proto/mcp-server";
import { createPageSource, paginate } from "@proto/mcp-server";
import { capabilityRefusal, classifyFailure, unavailableFailure } from "./classify";
import { failureError, unknownError } from "./errors";
import type { Pool } from "./pool";
import type { GatewaySettings } from "./settings";
import { createUriMapper, parseExposedUri } from "./uris";
import { withoutChildStamps } from "./child-result";

const PAGE_SIZE = 1000;

function record(params: JsonRpcParams | undefined): { [key: string]: unknown } {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as { [key: string]: unknown }) : {};
}

/** `resources/list`. */
export async function listResources(pool: Pool, params: JsonRpcParams | undefined, ui: boolean): Promise<{ resources: Resource[]; nextCursor?: string }> {
  await pool.ready();
  const resources = pool.catalog().resources.filter((r) => ui || !r.ui).map((r) => r.resource);
  const page = paginate(createPageSource(resources, (r) => r.uri), record(params).cursor, PAGE_SIZE);
  return page.nextCursor === undefined ? { resources: [...page.items] } : { resources: [...page.items], nextCursor: page.nextCursor };
}

/** `resources/templates/list`. */
export async function listTemplates(pool: Pool, params: JsonRpcParams | undefined): Promise<{ resourceTemplates: ResourceTemplate[]; nextCursor?: string }> {
  await pool.ready();
  const templates = pool.catalog().templates.map((t) => t.template);
  const page = paginate(createPageSource(templates, (t) => t.uriTemplate), record(params).cursor, PAGE_SIZE);
  return page.nextCursor === undefined ? { resourceTemplates: [...page.items] } : { resourceTemplates: [...page.items], nextCursor: page.nextCursor };
}

/** Where a URI goes: the child, its own URI, and whether the caller used the raw child URI. */
export function routeUri(pool: Pool, settings: GatewaySettings, uri: string): { child: string; uri: string; raw: boolean } {
  const parsed = parseExposedUri(settings.name, uri, new Set(pool.children.keys()));
  if (parsed !== undefined) return { ...parsed, raw: false };
  const owners = settings.bareNames === "unique" ? [...new Set(pool.catalog().childsByUri.get(uri) ?? [])] : [];
  if (owners.length === 1) return { child: owners[0] as string, uri, raw: true };
  const candidates = owners.map((child) => createUriMapper(settings.name, child).toExposed(uri));
  throw unknownError("resource", uri, candidates, owners.length > 1);
}

/** Runs a resource request on the child that owns `uri`, turning child failures into JSON-RPC errors. */
export async function onChildOfUri<T>(pool: Pool, settings: GatewaySettings, ctx: RequestContext, method: string, uri: string, op: (client: Client, childUri: string, signal: AbortSignal) => Promise<T>): Promise<{ value: T; child: string; raw: boolean }> {
  await pool.ready();
  const route = routeUri(pool, settings, uri);
  const child = pool.children.get(route.child);
  const site = { child: route.child, method, uri };
  const ui = isUiUri(route.uri);
  if (child === undefined || child.state === "failed" || child.state === "disabled") {
    throw failureError(unavailableFailure(site, `child "${route.child}" is ${child?.state ?? "unknown"}`, ui));
  }
  const startedAt = performance.now();
  // A borrowed signal, not ctx.signal: the pool aborts it when a 2026-07-28 input round abandons this call.
  const watched = pool.cancels.borrow(ctx);
  try {
    const value = await child.run((client) => pool.track(route.child, ctx, () => op(client, route.uri, watched.signal)));
    return { value: withoutChildStamps(value), child: route.child, raw: route.raw };
  } catch (error) {
    const refusal = capabilityRefusal(error, route.child);
    if (refusal !== undefined) throw refusal;
    const failure = classifyFailure(error, { ...site, startedAt, frameFault: child.frameFaultSince(startedAt), attempt: child.attempt }, ui);
    if (failure === undefined || ctx.signal.aborted) throw error;
    throw failureError(failure);
  } finally {
    pool.cancels.release(watched);
  }
}

/** `resources/read`. */
export async function readResource(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined): Promise<ReadResourceResult> {
  const uri = record(params).uri;
  if (typeof uri !== "string") throw unknownError("resource", String(uri), [], false);
  const { value, child, raw } = await onChildOfUri(pool, settings, ctx, "resources/read", uri, (client, childUri, signal) => client.readResource(childUri, { signal }));
  const rewritten = raw ? value : rewriteReadResult(value, createUriMapper(settings.name, child).toExposed);
  return dropUiDomain(rewritten);
}

/** `resources/subscribe` and `resources/unsubscribe`: forwarded to the child, remembered per upstream session. */
export async function subscription(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined, on: boolean): Promise<Record<string, never>> {
  const uri = record(params).uri;
  if (typeof uri !== "string") throw unknownError("resource", String(uri), [], false);
  const method = on ? "resources/subscribe" : "resources/unsubscribe";
  const { child, raw } = await onChildOfUri(pool, settings, ctx, method, uri, (client, childUri) => (on ? client.subscribe(childUri) : client.unsubscribe(childUri)));
  const exposed = raw ? createUriMapper(settings.name, child).toExposed(uri) : uri;
  let set = pool.subscriptions.get(ctx.session);
  if (set === undefined) pool.subscriptions.set(ctx.session, (set = new Set()));
  if (on) set.add(exposed);
  else set.delete(exposed);
  return {};
}
