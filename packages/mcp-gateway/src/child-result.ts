/**
 * What a child's result carries for the hop between the child and the gateway only: a
 * 2026-07-28 child stamps `resultType`, `ttlMs`/`cacheScope` and its own identity
 * (`_meta["io.modelcontextprotocol/serverInfo"]`) on its results. None of that is the
 * gateway's to pass on: a 2025-11-25 session must not see fields of the other revision, and a
 * 2026-07-28 request gets the gateway's own stamps from its server (its identity, its cache
 * hints with their safe defaults).
 */

const HOP_KEYS = ["resultType", "ttlMs", "cacheScope"] as const;
const SERVER_INFO = "io.modelcontextprotocol/serverInfo";

function hasHopFields(result: { readonly [key: string]: unknown }): boolean {
  if (HOP_KEYS.some((key) => key in result)) return true;
  const meta = result._meta;
  return typeof meta === "object" && meta !== null && SERVER_INFO in meta;
}

/**
 * `result` without the child's hop fields; the same object when it has none (a 2025-11-25
 * child's results, the usual case of a forwarded call, are not copied).
 */
export function withoutChildStamps<T>(result: T): T {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  const record = result as { readonly [key: string]: unknown };
  if (!hasHopFields(record)) return result;
  const out: { [key: string]: unknown } = { ...record };
  for (const key of HOP_KEYS) delete out[key];
  const meta = out._meta;
  if (typeof meta === "object" && meta !== null && SERVER_INFO in meta) {
    const rest: { [key: string]: unknown } = { ...(meta as { [key: string]: unknown }) };
    delete rest[SERVER_INFO];
    if (Object.keys(rest).length === 0) delete out._meta;
    else out._meta = rest;
  }
  return out as T;
}
