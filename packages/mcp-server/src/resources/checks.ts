/**
 * Registration checks shared by resources, templates and prompts: a bad definition throws a
 * `TypeError` at registration, never a wire error at request time.
 */
import type { Icon } from "@proto/mcp-protocol";

/** Throws unless `icons` is undefined or a list of icons whose `src` is an `https:`, `http:` or `data:` URI (MCP 2025-11-25 `Icon`). */
export function checkIcons(icons: unknown, where: string): asserts icons is readonly Icon[] | undefined {
  if (icons === undefined) return;
  if (!Array.isArray(icons)) throw new TypeError(`${where}: icons must be an array of { src, mimeType?, sizes?, theme? }`);
  for (const icon of icons as unknown[]) {
    const src = (icon as { src?: unknown } | null)?.src;
    if (typeof src !== "string" || !/^(https?:|data:)/i.test(src)) {
      throw new TypeError(`${where}: every icon needs a src that is an https: or data: URI, got ${JSON.stringify(src)}`);
    }
  }
}

/** Throws unless `value` is a non-empty string. */
export function checkText(value: unknown, what: string, where: string): asserts value is string {
  if (typeof value !== "string" || value === "") throw new TypeError(`${where}: ${what} must be a non-empty string`);
}

/** Throws unless `value` is undefined or a string. */
export function checkOptionalText(value: unknown, what: string, where: string): void {
  if (value !== undefined && typeof value !== "string") throw new TypeError(`${where}: ${what} must be a string when given`);
}

/** Copies the defined fields of `source` named in `keys` (descriptors carry no `undefined` members). */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
