/**
 * The repair hint of one validation error: what to change, in words a model can act on,
 * for every JSON Schema keyword (2020-12 included: `items: false`, `unevaluatedItems`,
 * `unevaluatedProperties`, `dependentRequired`, `if`/`then`/`else`). Errors arrive in the
 * shape ajv reports them (`SchemaError`), whichever validator ran.
 */
import type { SchemaError } from "./validation-report";

type Json = { readonly [key: string]: unknown };

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Renders a value in a line of text (long values cut). */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

/** The property names an object schema declares, its subschemas' (`allOf`, `anyOf`, `oneOf`, `then`, `else`, `dependentSchemas`) included. */
function declaredProperties(schema: unknown): string[] {
  const names = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!isRecord(node) || depth > 4) return;
    if (isRecord(node.properties)) for (const key of Object.keys(node.properties)) names.add(key);
    for (const key of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(node[key])) for (const sub of node[key] as unknown[]) visit(sub, depth + 1);
    for (const key of ["then", "else"]) visit(node[key], depth + 1);
    if (isRecord(node.dependentSchemas)) for (const sub of Object.values(node.dependentSchemas)) visit(sub, depth + 1);
  };
  visit(schema, 0);
  return [...names];
}

function describeProperty(parent: unknown, name: string): string {
  const sub = isRecord(parent) && isRecord(parent.properties) ? parent.properties[name] : undefined;
  if (!isRecord(sub)) return "";
  const type = sub.type === undefined ? "" : ` (${Array.isArray(sub.type) ? sub.type.join(" or ") : String(sub.type)})`;
  const desc = typeof sub.description === "string" ? `: ${sub.description}` : "";
  return `${type}${desc}`;
}

function removeKey(e: SchemaError, key: string): string {
  const accepted = e.keyword === "unevaluatedProperties" ? declaredProperties(e.parentSchema) : Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  return `Remove "${key}"${accepted.length === 0 && e.keyword === "unevaluatedProperties" ? "; no other property is accepted" : accepted.length === 0 ? "" : `; accepted: ${accepted.join(", ")}`}.`;
}

function extraItems(e: SchemaError): string {
  const limit = Number((e.params as { limit?: unknown }).limit ?? 0);
  return limit === 0 ? "Pass an empty array: no item is accepted." : `Pass at most ${limit} item${limit === 1 ? "" : "s"}: remove the items from index ${limit} on.`;
}

function branch(e: SchemaError): string {
  const failing = (e.params as { failingKeyword?: unknown }).failingKeyword === "then" ? "then" : "else";
  const condition = failing === "then" ? "meet the schema's if condition" : "do not meet the schema's if condition";
  return `These arguments ${condition}, and its "${failing}" branch refuses them: change them to match that branch (see the tool's input schema).`;
}

/** What to change for `e`; `name` is the last segment of the offending path. */
export function suggestion(e: SchemaError, name: string): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": return `Add "${name}"${describeProperty(e.parentSchema, name)}.`;
    case "dependentRequired": return `Add "${name}"${describeProperty(e.parentSchema, name)}, which "${String(p.property)}" requires, or remove "${String(p.property)}".`;
    case "additionalProperties": case "unevaluatedProperties": return removeKey(e, name);
    case "items": case "additionalItems": case "unevaluatedItems": return extraItems(e);
    case "if": return branch(e);
    case "type": return `Pass ${String(p.type)} instead of ${kindOf(e.data)}.`;
    case "enum": return `Use one of: ${(p.allowedValues as unknown[]).map(show).join(", ")}.`;
    case "const": return `Use exactly ${show(p.allowedValue)}.`;
    case "minLength": return `Use at least ${String(p.limit)} characters.`;
    case "maxLength": return `Use at most ${String(p.limit)} characters.`;
    case "pattern": return `Match the pattern ${String(p.pattern)}.`;
    case "format": return `Use the ${String(p.format)} format.`;
    case "minItems": return `Pass at least ${String(p.limit)} items.`;
    case "maxItems": return `Pass at most ${String(p.limit)} items.`;
    case "uniqueItems": return `Remove the duplicate at index ${String(p.i)} (same as index ${String(p.j)}).`;
    case "minimum": case "maximum": case "exclusiveMinimum": case "exclusiveMaximum":
      return `Pass a number ${String(p.comparison)} ${String(p.limit)}.`;
    case "multipleOf": return `Pass a multiple of ${String(p.multipleOf)}.`;
    default: return "Change the value to match the schema.";
  }
}
