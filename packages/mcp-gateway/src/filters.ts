/**
 * Per-child allow/deny filters on original names (tools, prompts) and URIs (resources,
 * templates): globs where `*` is any run of characters and `?` one character.
 */
import type { NameFilter } from "./types";

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[\\s\\S]*").replace(/\?/g, "[\\s\\S]");
  return new RegExp(`^${body}$`);
}

/** A compiled filter: true when the name is exposed. */
export type NamePredicate = (name: string) => boolean;

/** Compiles a filter; no filter exposes everything. */
export function compileFilter(filter: NameFilter | undefined): NamePredicate {
  if (filter === undefined) return () => true;
  const allow = filter.allow?.map(globToRegExp);
  const deny = (filter.deny ?? []).map(globToRegExp);
  return (name) => (allow === undefined || allow.some((r) => r.test(name))) && !deny.some((r) => r.test(name));
}
