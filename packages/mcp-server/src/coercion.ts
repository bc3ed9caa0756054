/**
 * Schema-guided coercion of string-sourced values: `"3"` for a number or integer, `"true"`
 * for a boolean, `"[1,2]"` for an array, `'{"a":1}'` for an object. Models often send those.
 * The caller keeps the coerced value only when it validates; otherwise the original is
 * reported. Nothing is ever coerced where the schema also accepts a string.
 */

type Schema = { readonly [key: string]: unknown } | boolean;

const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;
const MAX_DEPTH = 64;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function depthOf(value: unknown, limit: number): number {
  if (typeof value !== "object" || value === null) return 0;
  if (limit <= 0) return Infinity;
  let max = 0;
  for (const child of Object.values(value)) max = Math.max(max, depthOf(child, limit - 1));
  return max + 1;
}

/** Follows a local `$ref` (`#/$defs/x`, `#/definitions/x`); anything else is left unresolved. */
function resolve(schema: Schema, root: Schema): Schema {
  let current = schema;
  for (let hops = 0; hops < 16 && isRecord(current) && typeof current.$ref === "string"; hops++) {
    const ref = current.$ref;
    if (!ref.startsWith("#")) return current;
    let target: unknown = root;
    for (const part of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      target = isRecord(target) ? target[key] : undefined;
    }
    if (!isRecord(target) && typeof target !== "boolean") return current;
    current = target;
  }
  return current;
}

/** The schemas that apply to a value directly: the schema and its allOf/anyOf/oneOf branches. */
function branches(schema: Schema, root: Schema, depth = 0): Record<string, unknown>[] {
  const resolved = resolve(schema, root);
  if (!isRecord(resolved) || depth > 8) return [];
  const out = [resolved];
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = resolved[key];
    if (Array.isArray(list)) for (const sub of list) out.push(...branches(sub as Schema, root, depth + 1));
  }
  return out;
}

function typesOf(list: readonly Record<string, unknown>[]): Set<string> {
  const types = new Set<string>();
  for (const s of list) {
    const t = s.type;
    if (typeof t === "string") types.add(t);
    else if (Array.isArray(t)) for (const x of t) if (typeof x === "string") types.add(x);
  }
  return types;
}

function fromString(text: string, types: Set<string>): unknown {
  const trimmed = text.trim();
  if (types.has("integer") && INTEGER.test(trimmed)) {
    const n = Number(trimmed);
    if (Number.isSafeInteger(n)) return n;
  }
  if (types.has("number") && NUMBER.test(trimmed)) {
    const n = Number(trimmed);
    if (Number.isFinite(n)) return n;
  }
  if (types.has("boolean") && (trimmed === "true" || trimmed === "false")) return trimmed === "true";
  const json = (types.has("array") && trimmed.startsWith("[")) || (types.has("object") && trimmed.startsWith("{"));
  if (json) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const ok = Array.isArray(parsed) ? types.has("array") : isRecord(parsed) && types.has("object");
      if (ok && depthOf(parsed, MAX_DEPTH) <= MAX_DEPTH) return parsed;
    } catch {
      // Not JSON: left as it is, and reported by validation.
    }
  }
  return text;
}

function coerceChildren(value: unknown, list: readonly Record<string, unknown>[], root: Schema, depth: number): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((item, i) => {
      const sub = list.map((s) => (Array.isArray(s.prefixItems) && i < s.prefixItems.length ? s.prefixItems[i] : s.items)).find((x) => x !== undefined);
      const next = sub === undefined ? item : coerceAt(item, sub as Schema, root, depth + 1);
      if (next !== item) (out ??= [...value])[i] = next;
    });
    return out ?? value;
  }
  if (!isRecord(value)) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const sub = list.map((s) => (isRecord(s.properties) && key in s.properties ? s.properties[key] : undefined)).find((x) => x !== undefined)
      ?? list.map((s) => s.additionalProperties).find((x) => isRecord(x));
    const next = sub === undefined ? item : coerceAt(item, sub as Schema, root, depth + 1);
    if (next !== item) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

function coerceAt(value: unknown, schema: Schema, root: Schema, depth: number): unknown {
  if (depth > MAX_DEPTH) return value;
  const list = branches(schema, root);
  if (list.length === 0) return value;
  let current = value;
  if (typeof current === "string") {
    const types = typesOf(list);
    if (types.size > 0 && !types.has("string")) current = fromString(current, types);
  }
  return coerceChildren(current, list, root, depth);
}

/**
 * Returns `value` with string-sourced values coerced where `schema` wants a number, integer,
 * boolean, array or object. Returns the same reference when nothing changed; never mutates.
 */
export function coerceArguments(value: unknown, schema: Schema): unknown {
  return coerceAt(value, schema, schema, 0);
}
