/**
 * What a child's result carries for the hop between the child and the gateway only: a
 * 2026-07-28 child stamps `resultType`, `ttlMs`/`cacheScope` and its own identity
 * (`_meta["io.modelcontextprotocol/serverInfo"]`) on its results. None of that is the
 * gateway's to pass on: a 2025-11-25 session must not see fields of the other revision, and a
 * 2026-07-28 request gets the gateway's own stamps from its server (its identity, its cache
 * hints with their safe defaults).
 */

const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

function isHopKey(key: string): boolean {
  return key === "resultType" || key === "ttlMs" || key === "cacheScope";
}

function hasHopFields(result: { readonly [key: string]: unknown }): boolean {
  if ("resultType" in result || "ttlMs" in result || "cacheScope" in result) return true;
  const meta = result._meta;
  return typeof meta === "object" && meta !== null && SERVER_INFO in meta;
}

/** The `_meta` without the child's identity; undefined when nothing else is left. */
function metaWithoutInfo(meta: { readonly [key: string]: unknown }): { [key: string]: unknown } | undefined {
  let out: { [key: string]: unknown } | undefined;
  for (const key in meta) if (Object.hasOwn(meta, key) && key !== SERVER_INFO) (out ??= {})[key] = meta[key];
  return out;
}

/**
 * `result` without the child's hop fields; the same object when it has none (a 2025-11-25
 * child's results, the usual case of a forwarded call, are not copied).
 */
export function withoutChildStamps<T>(result: T): T {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  const record = result as { readonly [key: string]: unknown };
  if (!hasHopFields(record)) return result;
  // Copied key by key (no spread-then-delete, which leaves V8 a slow dictionary object): this runs on every call forwarded from a 2026-07-28 child.
  const out: { [key: string]: unknown } = {};
  for (const key in record) {
    if (!Object.hasOwn(record, key) || isHopKey(key)) continue;
    const value = record[key];
    if (key !== "_meta" || typeof value !== "object" || value === null || !(SERVER_INFO in value)) out[key] = value;
    else {
      const meta = metaWithoutInfo(value as { readonly [key: string]: unknown });
      if (meta !== undefined) out._meta = meta;
    }
  }
  return out as T;
}
