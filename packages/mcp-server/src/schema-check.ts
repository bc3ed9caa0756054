/**
 * The registration-time check of a JSON Schema: the value each keyword of the core,
 * applicator and validation vocabularies must have (JSON Schema 2020-12 meta-schema; 2019-09
 * and draft-07 differ only in `items` arrays and `dependencies`), synchronously and without
 * ajv, so `type: "strnig"` is a `TypeError` at `server.tool()` and cold start does not pay for
 * ajv. What needs a compiler (an unresolvable `$ref`, say) is still found by ajv on the first
 * call or by `server.ready()`. The schema must also be JSON data: no functions, no class
 * instances, no cycles, at most 64 levels deep.
 */
import type { Dialect } from "./validation";

type Json = { readonly [key: string]: unknown };

const TYPES = new Set(["string", "number", "integer", "boolean", "null", "array", "object"]);
/** Keywords whose value is one schema. */
export const SCHEMA_KEYWORDS = [
  "not", "if", "then", "else", "additionalItems", "contains", "additionalProperties", "propertyNames",
  "unevaluatedItems", "unevaluatedProperties", "contentSchema",
] as const;
/** Keywords whose value is a non-empty array of schemas. */
export const SCHEMA_ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
/** Keywords whose value is an object of schemas. */
export const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"] as const;
const COUNTS = ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "maxContains", "minContains"];
const NUMBERS = ["maximum", "minimum", "exclusiveMaximum", "exclusiveMinimum"];
const STRINGS = ["$id", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$comment", "title", "description", "format", "contentEncoding", "contentMediaType"];
const BOOLEANS = ["uniqueItems", "readOnly", "writeOnly", "deprecated"];
const MAX_DEPTH = 64;

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function pointer(path: readonly string[]): string {
  return path.length === 0 ? "the root" : `/${path.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** Refuses anything that is not JSON data (functions, class instances, cycles, too deep). */
function checkData(value: unknown, path: string[], fail: (path: readonly string[], what: string) => never, depth: number): void {
  if (value === null || typeof value === "string" || typeof value === "boolean") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail(path, `is ${String(value)}, not a JSON number`);
    return;
  }
  if (typeof value !== "object") fail(path, `is a ${typeof value}, not JSON data`);
  if (depth > MAX_DEPTH) fail(path, `is nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) fail(path, "is a class instance, not JSON data");
  for (const [key, child] of Object.entries(value)) checkData(child, [...path, key], fail, depth + 1);
}

function checkRegExp(source: unknown, path: readonly string[], fail: (path: readonly string[], what: string) => never): void {
  if (typeof source !== "string") fail(path, "must be a string (a regular expression)");
  try {
    new RegExp(source, "u");
  } catch (error) {
    fail(path, `is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function checkType(type: unknown, path: readonly string[], fail: (path: readonly string[], what: string) => never): void {
  const list = Array.isArray(type) ? type : [type];
  const names = [...TYPES].map((t) => `"${t}"`).join(", ");
  if (list.length === 0) fail(path, `must name at least one type of ${names}`);
  for (const t of list) if (typeof t !== "string" || !TYPES.has(t)) fail(path, `must be one of ${names} (or an array of them), got ${JSON.stringify(t)}`);
  if (new Set(list).size !== list.length) fail(path, "must not repeat a type");
}

function checkScalars(schema: Json, path: readonly string[], fail: (path: readonly string[], what: string) => never): void {
  const at = (key: string): string[] => [...path, key];
  if ("type" in schema) checkType(schema.type, at("type"), fail);
  if ("enum" in schema && !Array.isArray(schema.enum)) fail(at("enum"), "must be an array of the accepted values");
  if ("required" in schema && (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === "string"))) fail(at("required"), "must be an array of property names");
  for (const key of COUNTS) if (key in schema && !(Number.isInteger(schema[key]) && (schema[key] as number) >= 0)) fail(at(key), "must be a non-negative integer");
  for (const key of NUMBERS) if (key in schema && typeof schema[key] !== "number") fail(at(key), "must be a number");
  if ("multipleOf" in schema && !(typeof schema.multipleOf === "number" && schema.multipleOf > 0)) fail(at("multipleOf"), "must be a number greater than 0");
  for (const key of STRINGS) if (key in schema && typeof schema[key] !== "string") fail(at(key), "must be a string");
  for (const key of BOOLEANS) if (key in schema && typeof schema[key] !== "boolean") fail(at(key), "must be true or false");
  if ("pattern" in schema) checkRegExp(schema.pattern, at("pattern"), fail);
  if ("dependentRequired" in schema) {
    const map = schema.dependentRequired;
    if (!isRecord(map) || !Object.values(map).every((v) => Array.isArray(v) && v.every((r) => typeof r === "string"))) fail(at("dependentRequired"), "must map property names to arrays of property names");
  }
}

function walk(schema: unknown, path: string[], dialect: Dialect, fail: (path: readonly string[], what: string) => never, depth: number): void {
  if (typeof schema === "boolean") return;
  if (!isRecord(schema)) fail(path, "must be a schema (an object or a boolean)");
  if (depth > MAX_DEPTH) fail(path, `is nested deeper than ${MAX_DEPTH} levels (or cyclic)`);
  checkScalars(schema, path, fail);
  const sub = (value: unknown, ...more: string[]): void => walk(value, [...path, ...more], dialect, fail, depth + 1);
  for (const key of SCHEMA_KEYWORDS) if (key in schema) sub(schema[key], key);
  for (const key of SCHEMA_ARRAY_KEYWORDS) {
    if (!(key in schema)) continue;
    const list = schema[key];
    if (!Array.isArray(list) || list.length === 0) fail([...path, key], "must be a non-empty array of schemas");
    list.forEach((s, i) => sub(s, key, String(i)));
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    if (!(key in schema)) continue;
    const map = schema[key];
    if (!isRecord(map)) fail([...path, key], "must be an object of schemas");
    for (const [name, s] of Object.entries(map)) {
      if (key === "patternProperties") checkRegExp(name, [...path, key, name], fail);
      sub(s, key, name);
    }
  }
  if ("items" in schema) {
    if (Array.isArray(schema.items) && dialect !== "2020-12") schema.items.forEach((s, i) => sub(s, "items", String(i)));
    else sub(schema.items, "items");
  }
  if ("dependencies" in schema && dialect === "draft-07") {
    if (!isRecord(schema.dependencies)) fail([...path, "dependencies"], "must be an object");
    for (const [name, d] of Object.entries(schema.dependencies)) if (!Array.isArray(d)) sub(d, "dependencies", name);
  }
}

/**
 * Throws a `TypeError` naming `where` and the JSON Pointer of the first keyword whose value
 * the meta-schema refuses, or of the first value that is not JSON data.
 */
export function checkJsonSchema(schema: unknown, dialect: Dialect, where: string): void {
  const fail = (path: readonly string[], what: string): never => {
    throw new TypeError(`${where}: invalid JSON Schema: ${pointer(path)} ${what}`);
  };
  checkData(schema, [], fail, 0);
  walk(schema, [], dialect, fail, 0);
}
