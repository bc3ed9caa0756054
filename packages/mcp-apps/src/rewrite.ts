/**
 * Rewriting the `ui://` URIs of whole MCP messages for gateways, in either direction: give
 * `toGateway` (child to host) or `fromGateway` (host to child) from `createGatewayUriMap`, or
 * any `(uri) => uri` of your own. Inputs are never mutated; objects are copied along the paths
 * that change. Malformed shapes (a child's garbage) pass through untouched.
 *
 * Rewritten: `tools/list` (`_meta.ui.resourceUri`, and the deprecated flat key),
 * `resources/list` entries, `resources/read` params and contents, `resources/subscribe` and
 * `unsubscribe` params, `notifications/resources/updated`, and `resource_link` and embedded
 * `resource` blocks of `tools/call` results.
 */
import type { CallToolResult, ListResourcesResult, ListToolsResult, ReadResourceRequestParams, ReadResourceResult } from "@proto/mcp-protocol";
import { isUiUri, LEGACY_RESOURCE_URI_KEY, UI_META_KEY } from "./constants";
import { fromGatewayUri, toGatewayUri } from "./gateway-uri";

/** Maps one URI to another. */
export type UriMap = (uri: string) => string;

type Rec = Record<string, unknown>;

function isRecord(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `object` with `key` replaced by `f(object[key])`, or `object` itself when nothing changed. */
function update(object: Rec, key: string, f: (value: unknown) => unknown): Rec {
  if (!Object.hasOwn(object, key)) return object;
  const before = object[key];
  const after = f(before);
  return after === before ? object : { ...object, [key]: after };
}

function mapUri(map: UriMap): (value: unknown) => unknown {
  return (value) => (typeof value === "string" ? map(value) : value);
}

/** `list` with each item replaced by `f(item)`; the same array (nothing allocated) when no item changed. */
function mapItems(list: unknown, f: (item: unknown) => unknown): unknown {
  if (!Array.isArray(list)) return list;
  let out: unknown[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const item: unknown = list[i];
    const next = f(item);
    if (next !== item) (out ??= list.slice(0, i))[i] = next;
    else if (out !== undefined) out[i] = item;
  }
  return out ?? list;
}

function rewriteToolMeta(meta: unknown, map: UriMap): unknown {
  if (!isRecord(meta)) return meta;
  const nested = update(meta, UI_META_KEY, (ui) => (isRecord(ui) ? update(ui, "resourceUri", mapUri(map)) : ui));
  return update(nested, LEGACY_RESOURCE_URI_KEY, mapUri(map));
}

/** Rewrites `_meta.ui.resourceUri` (and `_meta["ui/resourceUri"]`) of every tool of a `tools/list` result. */
export function rewriteToolsList(result: ListToolsResult, map: UriMap): ListToolsResult {
  if (!isRecord(result)) return result;
  const tool = (t: unknown) => (isRecord(t) ? update(t, "_meta", (m) => rewriteToolMeta(m, map)) : t);
  return update(result, "tools", (tools) => mapItems(tools, tool)) as unknown as ListToolsResult;
}

/** Rewrites the `uri` of every entry of a `resources/list` result. */
export function rewriteResourcesList(result: ListResourcesResult, map: UriMap): ListResourcesResult {
  if (!isRecord(result)) return result;
  const entry = (r: unknown) => (isRecord(r) ? update(r, "uri", mapUri(map)) : r);
  return update(result, "resources", (list) => mapItems(list, entry)) as unknown as ListResourcesResult;
}

/** Rewrites the `uri` of `resources/read` (also `resources/subscribe`, `resources/unsubscribe`, `notifications/resources/updated`) params. */
export function rewriteReadParams(params: ReadResourceRequestParams, map: UriMap): ReadResourceRequestParams {
  return (isRecord(params) ? update(params, "uri", mapUri(map)) : params) as ReadResourceRequestParams;
}

/** Rewrites the `uri` of every content of a `resources/read` result. */
export function rewriteReadResult(result: ReadResourceResult, map: UriMap): ReadResourceResult {
  if (!isRecord(result)) return result;
  const content = (c: unknown) => (isRecord(c) ? update(c, "uri", mapUri(map)) : c);
  return update(result, "contents", (list) => mapItems(list, content)) as unknown as ReadResourceResult;
}

/** True when a `tools/call` result block holds a URI (a `resource_link` or an embedded `resource`). */
function holdsUri(block: unknown): boolean {
  return isRecord(block) && (block.type === "resource_link" || block.type === "resource");
}

/** True when `content` (a `tools/call` result's) has a block that holds a URI. */
function hasUriBlock(content: unknown): boolean {
  return Array.isArray(content) && content.some(holdsUri);
}

/** True when a `_meta` holds a view link (`ui.resourceUri` or the flat key). */
function metaHoldsUri(meta: unknown): boolean {
  return isRecord(meta) && (Object.hasOwn(meta, UI_META_KEY) || Object.hasOwn(meta, LEGACY_RESOURCE_URI_KEY));
}

/**
 * Rewrites `resource_link` URIs and embedded resources' URIs in a `tools/call` result, and the
 * result's own `_meta.ui.resourceUri` (and the flat key), which some hosts read on results.
 * A result with nothing to rewrite (the common text-only one) comes back as it is, with
 * nothing allocated: this runs on every call a gateway forwards.
 */
export function rewriteToolResult(result: CallToolResult, map: UriMap): CallToolResult {
  if (!isRecord(result)) return result;
  if (!metaHoldsUri(result._meta) && !hasUriBlock(result.content)) return result;
  const withMeta = update(result, "_meta", (m) => rewriteToolMeta(m, map));
  const block = (b: unknown): unknown => {
    if (!isRecord(b)) return b;
    if (b.type === "resource_link") return update(b, "uri", mapUri(map));
    if (b.type === "resource") return update(b, "resource", (r) => (isRecord(r) ? update(r, "uri", mapUri(map)) : r));
    return b;
  };
  return update(withMeta, "content", (list) => mapItems(list, block)) as unknown as CallToolResult;
}

const RESULTS: { readonly [method: string]: (result: never, map: UriMap) => unknown } = {
  "tools/list": rewriteToolsList,
  "resources/list": rewriteResourcesList,
  "resources/read": rewriteReadResult,
  "tools/call": rewriteToolResult,
};

const PARAMS = new Set(["resources/read", "resources/subscribe", "resources/unsubscribe", "notifications/resources/updated"]);

/** Rewrites the result of a response to `method`; results of other methods come back unchanged. */
export function rewriteUiResult(method: string, result: unknown, map: UriMap): unknown {
  const rewrite = Object.hasOwn(RESULTS, method) ? RESULTS[method] : undefined;
  return rewrite === undefined ? result : rewrite(result as never, map);
}

/** Rewrites the params of a request or notification `method`; other methods' params come back unchanged. */
export function rewriteUiParams(method: string, params: unknown, map: UriMap): unknown {
  return PARAMS.has(method) ? rewriteReadParams(params as ReadResourceRequestParams, map) : params;
}

/**
 * Rewrites a whole JSON-RPC message: a request's or notification's params by its own
 * method, a success response's result by `method` (the method of the request it answers;
 * responses do not carry it). Anything else comes back unchanged.
 */
export function rewriteUiMessage<M>(message: M, map: UriMap, method?: string): M {
  if (!isRecord(message)) return message;
  if (typeof message.method === "string") return update(message, "params", (p) => rewriteUiParams(message.method as string, p, map)) as M;
  if (method !== undefined && Object.hasOwn(message, "result")) return update(message, "result", (r) => rewriteUiResult(method, r, map)) as M;
  return message;
}

/** The two directions of one child's URIs behind a gateway. */
export interface GatewayUriMap {
  /** Child to host: a `ui://` URI becomes the gateway URI; other URIs pass through. */
  readonly toGateway: UriMap;
  /** Host to child: this child's gateway URI becomes the child's URI; other URIs pass through. Throws for another child's or gateway's URI. */
  readonly fromGateway: UriMap;
}

/**
 * The URI maps of child `child` behind gateway `gateway`, for the rewriting functions.
 * Throws a `TypeError` for bad names (see `toGatewayUri`).
 */
export function createGatewayUriMap(gateway: string, child: string): GatewayUriMap {
  toGatewayUri(gateway, child, "ui://x"); // validates the names once, with the same messages
  return {
    toGateway: (uri) => (isUiUri(uri) ? toGatewayUri(gateway, child, uri) : uri),
    fromGateway: (uri) => {
      if (!isUiUri(uri)) return uri;
      const parts = fromGatewayUri(uri);
      if (parts.gateway !== gateway || parts.child !== child) {
        throw new TypeError(`fromGateway: ${uri.slice(0, 200)} belongs to child "${parts.child}" of gateway "${parts.gateway}", not "${child}" of "${gateway}"; route it with fromGatewayUri() first`);
      }
      return parts.uri;
    },
  };
}

function dropDomain(meta: unknown): unknown {
  if (!isRecord(meta)) return meta;
  return update(meta, UI_META_KEY, (ui) => {
    if (!isRecord(ui) || !Object.hasOwn(ui, "domain")) return ui;
    const { domain: _domain, ...rest } = ui;
    return rest;
  });
}

/**
 * Drops `_meta.ui.domain` from `resources/list` entries, `resources/read` contents and
 * embedded resources of a `tools/call` result: a dedicated domain is granted to the server a
 * host connected to, so a proxied view cannot keep it (hosts check it against that server).
 */
export function dropUiDomain<T extends ListResourcesResult | ReadResourceResult | CallToolResult>(result: T): T {
  if (!isRecord(result)) return result;
  // The usual tool result (text blocks, no resources): nothing to drop, nothing allocated.
  if (result.resources === undefined && result.contents === undefined && !hasUriBlock(result.content)) return result;
  const withMeta = (x: unknown) => (isRecord(x) ? update(x, "_meta", dropDomain) : x);
  let out: Rec = update(result, "resources", (list) => mapItems(list, withMeta));
  out = update(out, "contents", (list) => mapItems(list, withMeta));
  out = update(out, "content", (list) => mapItems(list, (b) => (isRecord(b) && b.type === "resource" ? update(b, "resource", withMeta) : b)));
  return out as T;
}
