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
import type { ProgressUpdate } from "@proto/mcp-client";
import type { RequestContext } from "@proto/mcp-server";
import { createPageSource, paginate } from "@proto/mcp-server";
import type { ToolEntry } from "./catalog";
import { classifyFailure, unavailableFailure } from "./classify";
import { failureResult, unknownError } from "./errors";
import type { Pool } from "./pool";
import type { GatewaySettings } from "./settings";
import { createUriMapper } from "./uris";

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
  const visible = (t: ToolEntry) => ui || !t.appOnly;
  const exact = catalog.toolByName.get(name);
  if (exact !== undefined && visible(exact)) return exact;
  const bare = settings.bareNames === "unique" ? (catalog.toolsByOriginal.get(name) ?? []).filter(visible) : [];
  if (bare.length === 1) return bare[0] as ToolEntry;
  throw unknownError("tool", name, bare.map((t) => t.exposed), bare.length > 1);
}

/** Rewrites a child's result for the upstream: view links and resource URIs namespaced (web links kept), dedicated domains dropped. */
export function rewriteResult(settings: GatewaySettings, child: string, result: CallToolResult): CallToolResult {
  const map = createUriMapper(settings.name, child);
  const rewritten = rewriteToolResult(result, (uri) => (isUiUri(uri) || !/^https?:/i.test(uri) ? map.toExposed(uri) : uri));
  return dropUiDomain(rewritten);
}

/** `tools/call`. */
export async function callTool(pool: Pool, settings: GatewaySettings, ctx: RequestContext, params: JsonRpcParams | undefined, ui: boolean): Promise<CallToolResult> {
  const p = record(params);
  const name = typeof p.name === "string" ? p.name : "";
  await pool.ready();
  const entry = resolve(pool, settings, name, ui);
  const child = pool.children.get(entry.child);
  const site = { child: entry.child, method: "tools/call", tool: entry.exposed };
  if (child === undefined || child.state === "failed" || child.state === "disabled") {
    return failureResult(unavailableFailure(site, `child "${entry.child}" is ${child?.state ?? "unknown"}`));
  }
  const startedAt = performance.now();
  const args = typeof p.arguments === "object" && p.arguments !== null ? (p.arguments as { [key: string]: unknown }) : undefined;
  const meta = forwardedMeta(ctx.meta);
  // Progress is asked of the child only when the caller asked for it: a call without a token
  // takes the client's fast path (no progress token, no deadline timers of its own).
  const onProgress = ctx.meta.progressToken === undefined ? undefined : (update: ProgressUpdate) => void ctx.progress(update.progress, update.total, update.message).catch(() => {});
  try {
    const result = await child.run((client) =>
      pool.track(entry.child, ctx, () =>
        client.callTool(entry.name, args, {
          signal: ctx.signal,
          ...(onProgress === undefined ? {} : { onProgress }),
          ...(meta === undefined ? {} : { meta }),
        }),
      ),
    );
    return rewriteResult(settings, entry.child, result);
  } catch (error) {
    const timeoutMs = child.config.timeoutMs ?? 60_000;
    const failure = classifyFailure(error, { ...site, startedAt, timeoutMs, frameFault: child.frameFaultSince(startedAt), attempt: child.attempt });
    if (failure === undefined || ctx.signal.aborted) throw error;
    return failureResult(failure);
  }
}
