/**
 * Turns validation errors (`SchemaError`) into what a model can act on: one line per problem with a repair
 * suggestion, plus machine-readable details (argument, reason code, constraint, received
 * value, suggestion, and the advertised schema).
 */
import { show, suggestion } from "./validation-hints";

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
/** Keywords that reject a key of an object (the key is named in the path). */
const KEY_REJECTED = new Set(["additionalProperties", "unevaluatedProperties"]);
/** Keywords that reject the items of an array past a count (`items: false` after `prefixItems`...). */
const ITEMS_REJECTED = new Set(["items", "additionalItems", "unevaluatedItems"]);
const MISSING = new Set(["required", "dependentRequired"]);
const MAX_ERRORS = 20;

function unescape(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

function escape(segment: unknown): string {
  return String(segment).replace(/~/g, "~0").replace(/\//g, "~1");
}

function truncate(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text !== undefined && text.length > 200 ? `${text.slice(0, 197)}...` : value;
}

function reasonOf(keyword: string): ArgumentErrorReason {
  if (MISSING.has(keyword)) return "required";
  if (KEY_REJECTED.has(keyword) || ITEMS_REJECTED.has(keyword)) return "unexpected";
  if (keyword === "anyOf" || keyword === "oneOf") return "no_match";
  return REASONS.has(keyword) ? (keyword as ArgumentErrorReason) : "invalid";
}

/** The keyword and value a refusal cites: the failed branch of an `if`, never the `if` schema itself. */
function constraintOf(e: SchemaError): { readonly [keyword: string]: unknown } {
  const p = e.params as Record<string, unknown>;
  if (KEY_REJECTED.has(e.keyword)) return { [e.keyword]: false };
  if (e.keyword === "dependentRequired") {
    const property = String(p.property);
    return { dependentRequired: { [property]: (e.schema as Record<string, unknown> | undefined)?.[property] } };
  }
  if (e.keyword === "if") {
    const failing = p.failingKeyword === "then" ? "then" : "else";
    return { [failing]: (e.parentSchema as Record<string, unknown> | undefined)?.[failing] };
  }
  return { [e.keyword]: e.schema };
}

/** The value at JSON Pointer `pointer` of `input`, or `fallback` when `input` has no such path. */
function receivedAt(input: unknown, pointer: string, fallback: unknown): unknown {
  let node = input;
  for (const key of pointer.split("/").slice(1).map(unescape)) {
    if (typeof node !== "object" || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return fallback;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function one(e: SchemaError, input: { readonly value: unknown } | undefined): ArgumentError {
  const p = e.params as Record<string, unknown>;
  let path = e.instancePath;
  if (MISSING.has(e.keyword)) path += `/${escape(p.missingProperty)}`;
  if (e.keyword === "additionalProperties") path += `/${escape(p.additionalProperty)}`;
  if (e.keyword === "unevaluatedProperties") path += `/${escape(p.unevaluatedProperty)}`;
  const segments = path.split("/").slice(1).map(unescape);
  const argument = segments[0] ?? "";
  const name = segments.at(-1) ?? argument;
  const base = { argument, path, reason: reasonOf(e.keyword), constraint: constraintOf(e), suggestion: suggestion(e, name) };
  if (MISSING.has(e.keyword) || KEY_REJECTED.has(e.keyword)) return base;
  return { ...base, received: truncate(input === undefined ? e.data : receivedAt(input.value, e.instancePath, e.data)) };
}

/** The errors worth reporting: those under a failed `anyOf`/`oneOf` fold into it; an `if` whose failed branch reported its own errors is dropped. */
function relevant(errors: readonly SchemaError[]): SchemaError[] {
  const branchPaths = errors.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.schemaPath);
  const kept = errors.filter(
    (e) =>
      !branchPaths.some((b) => e.schemaPath !== b && e.schemaPath.startsWith(`${b}/`)) &&
      !(e.keyword === "false schema" && /\/(then|else)\/false schema$/.test(e.schemaPath)),
  );
  return kept.filter((e) => {
    if (e.keyword !== "if") return true;
    const failing = (e.params as { failingKeyword?: unknown }).failingKeyword === "then" ? "then" : "else";
    const prefix = `${e.schemaPath.slice(0, -"if".length)}${failing}/`;
    return !kept.some((other) => other.schemaPath.startsWith(prefix));
  });
}

/**
 * Converts validation errors (at most 20 kept) into argument errors. `input`, when given, is
 * the value as the client sent it: a refused value is shown as received there, not as coerced.
 */
export function toArgumentErrors(errors: readonly SchemaError[], input?: { readonly value: unknown }): ArgumentError[] {
  return relevant(errors).slice(0, MAX_ERRORS).map((e) => one(e, input));
}

function what(e: ArgumentError, got: string): string {
  const vendor = e.constraint.validate;
  const [keyword = "", value] = Object.entries(e.constraint)[0] ?? [];
  if (e.reason === "required") {
    const by = keyword === "dependentRequired" && typeof value === "object" && value !== null ? Object.keys(value)[0] : undefined;
    return by === undefined ? "is required" : `is required when "${by}" is given`;
  }
  if (e.reason === "unexpected") return ITEMS_REJECTED.has(keyword) ? `has more items than the schema accepts${got}` : "is not an accepted argument";
  if (typeof vendor === "string") return `is refused by the ${vendor} schema${got}`;
  if (e.reason === "invalid" && (keyword === "then" || keyword === "else")) return `does not match the schema's "${keyword}" branch${got}`;
  return `fails ${e.reason} ${show(value)}${got}`;
}

/** The text a model reads: what is wrong with each argument and how to fix it. */
export function formatArgumentErrors(tool: string, errors: readonly ArgumentError[]): string {
  const lines = errors.map((e) => {
    const where = e.path === "" ? "arguments" : `"${e.path.slice(1)}"`;
    const got = "received" in e ? ` (received ${show(e.received)})` : "";
    return `- ${where} ${what(e, got)}. ${e.suggestion}`;
  });
  return `Invalid arguments for tool "${tool}":\n${lines.join("\n")}\nFix the arguments to match the tool's input schema and call it again.`;
}
