/**
 * `tools/list` and `tools/call` through the gateway. Lists are the catalog's, per session:
 * sessions that negotiated MCP Apps see links (rewritten) and app-only tools (marked
 * `visibility: ["app"]`, which hosts keep from the model); other sessions see neither, and
 * cannot call an app-only tool by any name. Calls route by the exact table, or by a child's
 * own name when exactly one child has it (views call their tools by bare name); progress,
 * cancellation and `_meta` travel to the child; child failures come back as `isError` results.
 */
import type { JsonRpcParams } from "@proto/jsonrpc";
import type { CallToolResult, Meta, Tool } from "@proto/mcp-protocol";
import { dropUiDomain, isUiUri, rewriteToolResult } from "@proto/mcp-apps";
import type { CallToolOptions, ProgressUpdate } from "@proto/mcp-client";
import type { RequestContext } from "@proto/mcp-server";
import { createPageSource, paginate } from "@proto/mcp-server";
import type { ToolEntry } from "./catalog";
import { classifyFailure, unavailableFailure } from "./classify";
import type { FailureSite } from "./classify";
import { failureResult, unknownError } from "./errors";
import type { Pool } from "./pool";
import type { GatewaySettings } from "./settings";
import { createUriMapper } from "./uris";
import { withoutChildStamps } from "./child-result";

/** Whether this request's client negotiated MCP Apps (per request: 2026-07-28 carries capabilities in `_meta`). */
export type UiCheck = (ctx: RequestContext) => boolean;

const PAGE_SIZE = 1000;

function record(params: JsonRpcParams | undefined): { [key: string]: unknown } {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as { [key: string]: unknown }) : {};
}

/** The upstream `_meta` minus what belongs to the upstream hop (its progress token, its protocol context). */
export function forwardedMeta(meta: Meta): Meta | undefined {
  // On every forwarded call: no arrays of entries, and nothing allocated when nothing is kept (the usual case).
  let out: { [key: string]: unknown } | undefined;
  for (const key in meta) {
    if (!Object.hasOwn(meta, key) || key === "progressToken" || key.startsWith("io.modelcontextprotocol/")) continue;
    (out ??= {})[key] = meta[key];
  }
  return out;
}

/** `tools/list`. */
export async function listTools(pool: Pool, ctx: RequestContext, params: JsonRpcParams | undefined, ui: boolean): Promise<{ tools: Tool[]; nextCursor?: string }> {
  await pool.ready();
  const tools = pool.catalog().tools.flatMap((t) => (ui ? [t.tool] : t.plain === undefined ? [] : [t.plain]));
  const page = paginate(createPageSource(tools, (t) => t.name), record(params).cursor, PAGE_SIZE);
  return page.nextCursor === undefined ? { tools: [...page.items] } : { tools: [...page.items], nextCursor: page.nextCursor };
}

function resolve(pool: Pool, settings: GatewaySettings, name: string, ui: boolean): ToolEntry {
  const catalog = pool.catalog();
  const exact = catalog.toolByName.get(name);
  if (exact !== undefined && (ui || !exact.appOnly)) return exact;
  const bare = settings.bareNames === "unique" ? (catalog.toolsByOriginal.get(name) ?? []).filter((t) => ui || !t.appOnly) : [];
  if (bare.length === 1) return bare[0] as ToolEntry;
  throw unknownError("tool", name, bare.map((t) => t.exposed), bare.length > 1);
}

/** The URI map of one child's tool results, made once per gateway and child (results are rewritten on every call). */
const resultMaps = new WeakMap<GatewaySettings, Map<string, (uri: string) => string>>();

function resultMap(settings: GatewaySettings, child: string): (uri: string) => string {
  let maps = resultMaps.get(settings);
  if (maps === undefined) resultMaps.set(settings, (maps = new Map()));
  let map = maps.get(child);
  if (map === undefined) {
    const mapper = createUriMapper(settings.name, child);
    map = (uri) => (isUiUri(uri) || !/^https?:/i.test(uri) ? mapper.toExposed(uri) : uri);
    maps.set(child, map);
  }
  return map;
}

/**
 * Rewrites a child's result for the upstream: view links and resource URIs namespaced (web
 * links kept), dedicated domains dropped. A result with nothing to rewrite (no link, no
 * resource) is passed on as the child's client decoded it, with nothing copied.
 */
export function rewriteResult(settings: GatewaySettings, child: string, result: CallToolResult): CallToolResult {
  return dropUiDomain(rewriteToolResult(result, resultMap(settings, child)));
}

/** The client options of a forwarded call: cancellation (`signal`, the pool's borrowed one), and progress and `_meta` only when there are some. */
function forwardOptions(ctx: RequestContext, signal: AbortSignal): CallToolOptions {
  const meta = forwardedMeta(ctx.meta);
  // Progress is asked of the child only when the caller asked for it: a call without a token
  // takes the client's fast path (no progress token, no deadline timers of its own).
  const progress = ctx.meta.progressToken !== undefined;
  if (meta === undefined && !progress) return { signal };
  const onProgress = (update: ProgressUpdate) => void ctx.progress(update.progress, update.total, update.message).catch(() => {});
  return { signal, ...(progress ? { onProgress } : {}), ...(meta === undefined ? {} : { meta }) };
}

/**
 * `tools/call`. Once the pool is ready, no `await` of its own: one promise layer from the
 * child's client to the upstream answer (this runs on every forwarded call).
 */
export function callTool(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined, ui: boolean): Promise<CallToolResult> {
  if (!pool.isReady) return pool.ready().then(() => forward(pool, settings, ctx, params, ui));
  try {
    return forward(pool, settings, ctx, params, ui);
  } catch (error) {
    return Promise.reject(error);
  }
}

function siteOf(entry: ToolEntry): FailureSite {
  return { child: entry.child, method: "tools/call", tool: entry.exposed };
}

function forward(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined, ui: boolean): Promise<CallToolResult> {
  const p = record(params);
  const entry = resolve(pool, settings, typeof p.name === "string" ? p.name : "", ui);
  const child = pool.children.get(entry.child);
  if (child === undefined || child.state === "failed" || child.state === "disabled") {
    return Promise.resolve(failureResult(unavailableFailure(siteOf(entry), `child "${entry.child}" is ${child?.state ?? "unknown"}`)));
  }
  const startedAt = performance.now();
  const args = typeof p.arguments === "object" && p.arguments !== null ? (p.arguments as { [key: string]: unknown }) : undefined;
  // Upstream cancellation reaches the child through a borrowed signal (no AbortSignal made per call).
  const watched = pool.cancels.borrow(ctx);
  const options = forwardOptions(ctx, watched.signal);
  pool.enter(entry.child, ctx);
  return child.run((client) => client.callTool(entry.name, args, options)).then(
    (result) => {
      pool.cancels.release(watched);
      pool.leave(entry.child, ctx);
      return rewriteResult(settings, entry.child, withoutChildStamps(result));
    },
    (error: unknown) => {
      pool.cancels.release(watched);
      pool.leave(entry.child, ctx);
      const timeoutMs = child.config.timeoutMs ?? 60_000;
      const failure = classifyFailure(error, { ...siteOf(entry), startedAt, timeoutMs, frameFault: child.frameFaultSince(startedAt), attempt: child.attempt });
      if (failure === undefined || ctx.signal.aborted) throw error;
      return failureResult(failure);
    },
  );
}
