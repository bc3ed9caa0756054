/**
 * Turns validation errors (`SchemaError`) into what a model can act on: one line per problem with a repair
 * suggestion, plus machine-readable details (argument, reason code, constraint, received
 * value, suggestion, and the advertised schema).
 */

/**
 * One validation error, in the shape ajv reports it (`ErrorObject` with `verbose: true`); the
 * interpreting validator produces the same shape, so reports read alike whichever one ran.
 */
export interface SchemaError {
  readonly keyword: string;
  /** JSON Pointer to the value, within the validated instance. */
  readonly instancePath: string;
  /** Where the keyword is, as a URI fragment (`#/properties/x/maximum`). */
  readonly schemaPath: string;
  readonly params: { readonly [key: string]: unknown };
  /** The keyword's value. */
  readonly schema?: unknown;
  /** The schema object holding the keyword. */
  readonly parentSchema?: unknown;
  /** The value that failed. */
  readonly data?: unknown;
}

/** Why an argument was refused. */
export type ArgumentErrorReason =
  | "required"
  | "unexpected"
  | "type"
  | "enum"
  | "const"
  | "minLength"
  | "maxLength"
  | "pattern"
  | "format"
  | "minItems"
  | "maxItems"
  | "uniqueItems"
  | "minimum"
  | "maximum"
  | "exclusiveMinimum"
  | "exclusiveMaximum"
  | "multipleOf"
  | "minProperties"
  | "maxProperties"
  | "no_match"
  | "not"
  | "invalid";

/** One refused argument. */
export interface ArgumentError {
  /** The top-level argument concerned (empty for the arguments object as a whole). */
  readonly argument: string;
  /** JSON Pointer to the offending value within the arguments. */
  readonly path: string;
  readonly reason: ArgumentErrorReason;
  /** The schema keyword and its value, e.g. `{ maximum: 10 }`. */
  readonly constraint: { readonly [keyword: string]: unknown };
  /** The value received, when there was one (truncated when long). */
  readonly received?: unknown;
  /** What to change. */
  readonly suggestion: string;
}

/** The machine-readable details of a refused tool call, under `_meta[TOOL_ERROR_META_KEY]`. */
export interface ToolArgumentsErrorDetails {
  readonly code: "invalid_arguments";
  readonly tool: string;
  readonly errors: readonly ArgumentError[];
  /** The input schema exactly as `tools/list` advertises it. */
  readonly schema: unknown;
}

const REASONS = new Set<string>([
  "enum", "const", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems", "uniqueItems", "minimum",
  "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minProperties", "maxProperties", "not", "type",
]);
const MAX_ERRORS = 20;

function unescape(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function truncate(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 200 ? `${text.slice(0, 197)}...` : value;
}

function kindOf(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
}

function suggestion(e: SchemaError, name: string): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required": return `Add "${name}"${describe(e)}.`;
    case "additionalProperties": {
      const props = (e.parentSchema as { properties?: object } | undefined)?.properties;
      const allowed = props === undefined ? "" : `; accepted: ${Object.keys(props).join(", ")}`;
      return `Remove "${name}"${allowed}.`;
    }
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

function describe(e: SchemaError): string {
  const missing = (e.params as { missingProperty?: string }).missingProperty ?? "";
  const props = (e.parentSchema as { properties?: Record<string, { type?: unknown; description?: unknown }> } | undefined)?.properties;
  const sub = props?.[missing];
  if (sub === undefined) return "";
  const type = sub.type === undefined ? "" : ` (${Array.isArray(sub.type) ? sub.type.join(" or ") : String(sub.type)})`;
  const desc = typeof sub.description === "string" ? `: ${sub.description}` : "";
  return `${type}${desc}`;
}

function one(e: SchemaError): ArgumentError {
  const p = e.params as Record<string, unknown>;
  let path = e.instancePath;
  if (e.keyword === "required") path += `/${String(p.missingProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  if (e.keyword === "additionalProperties") path += `/${String(p.additionalProperty).replace(/~/g, "~0").replace(/\//g, "~1")}`;
  const segments = path.split("/").slice(1).map(unescape);
  const argument = segments[0] ?? "";
  const name = segments.at(-1) ?? argument;
  const reason: ArgumentErrorReason =
    e.keyword === "required" ? "required"
      : e.keyword === "additionalProperties" ? "unexpected"
        : e.keyword === "anyOf" || e.keyword === "oneOf" ? "no_match"
          : REASONS.has(e.keyword) ? (e.keyword as ArgumentErrorReason) : "invalid";
  const constraint = e.keyword === "additionalProperties" ? { additionalProperties: false } : { [e.keyword]: e.schema };
  const base = { argument, path, reason, constraint, suggestion: suggestion(e, name) };
  return e.keyword === "required" || e.keyword === "additionalProperties" ? base : { ...base, received: truncate(e.data) };
}

/** Converts validation errors (at most 20 kept) into argument errors; errors under a failed `anyOf`/`oneOf` are folded into it. */
export function toArgumentErrors(errors: readonly SchemaError[]): ArgumentError[] {
  const branchPaths = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.schemaPath);
  const kept = errors.filter((e) => !branchPaths.some((b) => e.schemaPath !== b && e.schemaPath.startsWith(`${b}/`)));
  return kept.slice(0, MAX_ERRORS).map(one);
}

/** The text a model reads: what is wrong with each argument and how to fix it. */
export function formatArgumentErrors(tool: string, errors: readonly ArgumentError[]): string {
  const lines = errors.map((e) => {
    const where = e.path === "" ? "arguments" : `"${e.path.slice(1)}"`;
    const got = "received" in e ? ` (received ${show(e.received)})` : "";
    const vendor = e.constraint.validate;
    const what =
      e.reason === "required" ? "is required"
        : e.reason === "unexpected" ? "is not an accepted argument"
          : typeof vendor === "string" ? `is refused by the ${vendor} schema${got}`
            : `fails ${e.reason} ${show(Object.values(e.constraint)[0])}${got}`;
    return `- ${where} ${what}. ${e.suggestion}`;
  });
  return `Invalid arguments for tool "${tool}":\n${lines.join("\n")}\nFix the arguments to match the tool's input schema and call it again.`;
}
