/**
 * The result of a modern request on the wire (MCP 2026-07-28 basic/index "Result metadata",
 * server/utilities/caching): `resultType` on every result, the server's identity in
 * `_meta["io.modelcontextprotocol/serverInfo"]`, and `ttlMs`/`cacheScope` on complete list,
 * read and discover results. Session-era results never pass through here.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import { McpErrorCode, MetaKey, ResultType } from "@proto/mcp-protocol";
import type { CacheHints, CacheScope, Implementation } from "@proto/mcp-protocol";

/** The cache hints of each cacheable result (`ServerOptions.stateless.cache`). */
export interface CacheOptions {
  /** For every cacheable result unless a feature says otherwise. Default `{ ttlMs: 0, cacheScope: "private" }`. */
  readonly default?: CacheHints;
  /** `server/discover`. */
  readonly discover?: CacheHints;
  /** `tools/list`. */
  readonly tools?: CacheHints;
  /** `prompts/list`. */
  readonly prompts?: CacheHints;
  /** `resources/list`, `resources/templates/list` (all pages share one scope). */
  readonly resources?: CacheHints;
  /** `resources/read`. */
  readonly reads?: CacheHints;
}

const FEATURE: { readonly [method: string]: keyof CacheOptions } = {
  "server/discover": "discover",
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resources",
  "resources/read": "reads",
};

const SAFE: CacheHints = Object.freeze({ ttlMs: 0, cacheScope: "private" as CacheScope });

function checkHints(name: string, hints: CacheHints | undefined): void {
  if (hints === undefined) return;
  if (!Number.isInteger(hints.ttlMs) || hints.ttlMs < 0) throw new TypeError(`stateless.cache.${name}.ttlMs must be an integer >= 0`);
  if (hints.cacheScope !== "public" && hints.cacheScope !== "private") throw new TypeError(`stateless.cache.${name}.cacheScope must be "public" or "private"`);
}

/** Resolves the hints per method; misuse throws a `TypeError`. */
export function resolveCacheHints(options: CacheOptions = {}): (method: string) => CacheHints | undefined {
  for (const [name, hints] of Object.entries(options)) checkHints(name, hints as CacheHints);
  const fallback = options.default ?? SAFE;
  return (method) => {
    const feature = FEATURE[method];
    return feature === undefined ? undefined : (options[feature] ?? fallback);
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Stamps a handler's result for the modern wire. Built with `Object.assign` and plain
 * assignments: object spread with a computed key is many times slower on V8 here, and this
 * runs on every modern answer.
 */
export function encodeModernResult(result: unknown, hints: CacheHints | undefined, info: Implementation): Record<string, unknown> {
  const r = Object.assign({}, isRecord(result) ? result : undefined) as Record<string, unknown>;
  if (typeof r.resultType !== "string") r.resultType = ResultType.Complete;
  if (hints !== undefined && r.resultType === ResultType.Complete) {
    if (r.ttlMs === undefined) r.ttlMs = hints.ttlMs;
    if (r.cacheScope === undefined) r.cacheScope = hints.cacheScope;
  }
  const meta = Object.assign({}, isRecord(r._meta) ? r._meta : undefined) as Record<string, unknown>;
  meta[MetaKey.ServerInfo] = info;
  r._meta = meta;
  return r;
}

/** Session-era error codes the modern wire does not use: a missing resource is -32602 with `data.uri`. */
export function encodeModernError(error: unknown): unknown {
  if (error instanceof JsonRpcError && error.code === McpErrorCode.ResourceNotFound) {
    return new JsonRpcError(JsonRpcErrorCode.InvalidParams, error.message, error.data);
  }
  return error;
}
