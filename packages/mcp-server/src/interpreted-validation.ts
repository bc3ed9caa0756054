/**
 * The interpreting validator, for runtimes that refuse code generation from strings
 * (Cloudflare Workers, a strict CSP, `node --disallow-code-generation-from-strings`), where
 * ajv's compiled validators cannot be built: `@cfworker/json-schema` walks the schema at each
 * validation. Loaded with a dynamic `import()` the first time it is needed, like ajv.
 *
 * Its errors are turned into the shape ajv reports (`SchemaError`), so a refused call reads
 * the same whichever validator ran: wrappers that only say "a subschema failed" are dropped,
 * the keyword's value and params are read back from the schema. `format` is removed from the
 * validator's copy: it is an annotation here, as with ajv (`validateFormats: false`).
 */
import type { OutputUnit, Validator as CfValidator } from "@cfworker/json-schema";
import { SCHEMA_ARRAY_KEYWORDS, SCHEMA_KEYWORDS, SCHEMA_MAP_KEYWORDS } from "./schema-check";
import type { Dialect } from "./validation";
import type { SchemaError } from "./validation-report";

type Json = { readonly [key: string]: unknown };
type ValidatorClass = typeof CfValidator;

let loaded: Promise<ValidatorClass> | undefined;

/** Imports `@cfworker/json-schema` (once per process). */
export function loadInterpreter(): Promise<ValidatorClass> {
  return (loaded ??= import("@cfworker/json-schema").then((m) => m.Validator));
}

const WRAPPERS = new Set(["properties", "patternProperties", "items", "prefixItems", "additionalItems", "unevaluatedItems", "$ref", "$recursiveRef", "allOf", "then", "else", "dependentSchemas", "dependencies", "propertyNames"]);
const COMPARISON: { readonly [keyword: string]: string } = { minimum: ">=", maximum: "<=", exclusiveMinimum: ">", exclusiveMaximum: "<" };
const LIMITS = new Set(["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]);

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of `schema` without `format` keywords (the copy is also what cfworker may annotate). */
function withoutFormats(schema: unknown): unknown {
  if (!isRecord(schema)) return schema;
  const out: { [key: string]: unknown } = { ...schema };
  delete out.format;
  for (const key of SCHEMA_KEYWORDS) if (key in out) out[key] = withoutFormats(out[key]);
  if ("items" in out) out.items = Array.isArray(out.items) ? out.items.map(withoutFormats) : withoutFormats(out.items);
  for (const key of SCHEMA_ARRAY_KEYWORDS) if (Array.isArray(out[key])) out[key] = (out[key] as unknown[]).map(withoutFormats);
  for (const key of SCHEMA_MAP_KEYWORDS) {
    if (isRecord(out[key])) out[key] = Object.fromEntries(Object.entries(out[key]).map(([k, v]) => [k, withoutFormats(v)]));
  }
  return out;
}

function segments(location: string): string[] {
  return location.split("/").slice(1).map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

function at(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (key === "$ref" && isRecord(node) && typeof node.$ref === "string" && node.$ref.startsWith("#")) node = at(root, segments(node.$ref.slice(1)));
    else node = isRecord(node) || Array.isArray(node) ? (node as Json)[key] : undefined;
  }
  return node;
}

function quoted(text: string, after: string): string {
  const start = text.indexOf(`${after} "`);
  return start < 0 ? "" : text.slice(start + after.length + 2, text.lastIndexOf('"'));
}

function paramsOf(keyword: string, value: unknown, unit: OutputUnit): { [key: string]: unknown } {
  if (keyword === "type") return { type: Array.isArray(value) ? value.join(",") : value };
  if (keyword === "enum") return { allowedValues: value };
  if (keyword === "const") return { allowedValue: value };
  if (keyword in COMPARISON) return { comparison: COMPARISON[keyword], limit: value };
  if (LIMITS.has(keyword)) return { limit: value };
  if (keyword === "multipleOf") return { multipleOf: value };
  if (keyword === "pattern") return { pattern: value };
  if (keyword === "required") return { missingProperty: quoted(unit.error, "property") };
  if (keyword === "additionalProperties") return { additionalProperty: quoted(unit.error, "Property").split('" does not match')[0] };
  if (keyword === "unevaluatedProperties") return { unevaluatedProperty: quoted(unit.error, "Property").split('" does not match')[0] };
  if (keyword === "if") return { failingKeyword: unit.error.includes('"then"') ? "then" : "else" };
  if (keyword === "dependentRequired") {
    const [, property = "", missingProperty = ""] = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(unit.error) ?? [];
    return { property, missingProperty };
  }
  if (keyword === "uniqueItems") {
    const [j = 0, k = 0] = (unit.error.match(/\d+/g) ?? []).map(Number);
    return { i: Math.max(j, k), j: Math.min(j, k) };
  }
  return {};
}

function pointer(path: readonly string[]): string {
  return path.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/**
 * cfworker reports `items: false` (and `additionalItems`, `unevaluatedItems`) as the keyword's
 * unit then one `false` unit per extra item; ajv reports one error on the array with
 * `params.limit`, the index of the first extra item. Pushes that error once per array.
 */
function pushItems(out: SchemaError[], wrapper: OutputUnit, item: OutputUnit, root: unknown, instance: unknown): void {
  const arrayPath = segments(wrapper.instanceLocation.slice(1));
  const instancePath = pointer(arrayPath);
  const last = out.at(-1);
  if (last?.keyword === wrapper.keyword && last.instancePath === instancePath) return;
  const schemaPath = segments(wrapper.keywordLocation.slice(1));
  const index = Number(segments(item.instanceLocation.slice(1)).at(-1));
  out.push({
    keyword: wrapper.keyword,
    instancePath,
    schemaPath: wrapper.keywordLocation,
    params: { limit: index },
    schema: at(root, schemaPath),
    parentSchema: at(root, schemaPath.slice(0, -1)),
    data: at(instance, arrayPath),
  });
}

const ITEM_WRAPPERS = new Set(["items", "additionalItems", "unevaluatedItems"]);

/** Converts cfworker's output units into ajv-shaped errors. */
function toSchemaErrors(units: readonly OutputUnit[], root: unknown, instance: unknown): SchemaError[] {
  const out: SchemaError[] = [];
  let previous: OutputUnit | undefined;
  for (const unit of units) {
    const before = previous;
    previous = unit;
    // cfworker locates dependentRequired at "#/dependantRequired"
    const location = unit.keyword === "dependentRequired" ? unit.keywordLocation.replace(/dependantRequired$/, "dependentRequired") : unit.keywordLocation;
    const schemaPath = segments(location.slice(1));
    const value = at(root, schemaPath);
    if (unit.keyword === "false" && before !== undefined && ITEM_WRAPPERS.has(before.keyword)) {
      pushItems(out, before, unit, root, instance);
      continue;
    }
    // a `then: false` / `else: false` is reported by its `if` alone, as with ajv
    if (unit.keyword === "false" && before?.keyword === "if") continue;
    if (WRAPPERS.has(unit.keyword)) continue;
    if ((unit.keyword === "additionalProperties" || unit.keyword === "unevaluatedProperties") && value !== false) continue;
    if (unit.keyword === "false" && /^(additional|unevaluated)Properties$/.test(out.at(-1)?.keyword ?? "")) continue;
    const instancePath = segments(unit.instanceLocation.slice(1));
    out.push({
      keyword: unit.keyword === "false" ? "false schema" : unit.keyword,
      instancePath: pointer(instancePath),
      schemaPath: location,
      params: paramsOf(unit.keyword, value, unit),
      schema: value,
      parentSchema: at(root, schemaPath.slice(0, -1)),
      data: at(instance, instancePath),
    });
  }
  return additionalFirst(out);
}

/** ajv checks `additionalProperties` before `properties`; cfworker after: move each one before its siblings' errors. */
function additionalFirst(errors: SchemaError[]): SchemaError[] {
  for (let i = 0; i < errors.length; i++) {
    const e = errors[i] as SchemaError;
    if (e.keyword !== "additionalProperties") continue;
    const siblings = `${e.schemaPath.slice(0, -"additionalProperties".length)}properties/`;
    const j = errors.findIndex((other, k) => k < i && other.schemaPath.startsWith(siblings));
    if (j >= 0) errors.splice(j, 0, ...errors.splice(i, 1));
  }
  return errors;
}

/** A validator built by the interpreter: the same contract as an ajv `ValidateFunction`. */
export interface InterpretedValidator {
  (value: unknown): boolean;
  errors: SchemaError[] | null;
}

/** Builds an interpreting validator of `schema` (a copy is made; `schema` is never changed). */
export function createInterpretedValidator(Validator: ValidatorClass, schema: Json, dialect: Dialect): InterpretedValidator {
  const validator = new Validator(withoutFormats(schema) as never, dialect === "draft-07" ? "7" : dialect, false);
  const fn = ((value: unknown): boolean => {
    const result = validator.validate(value);
    fn.errors = result.valid ? null : toSchemaErrors(result.errors, schema, value);
    return result.valid;
  }) as InterpretedValidator;
  fn.errors = null;
  return fn;
}
