/**
 * RFC 6570 expansion (section 3 and appendix A) of parsed parts, levels 1 to 4.
 */
import { encodeUnreserved, encodeValue, truncate } from "./encode";
import { OPERATORS } from "./operators";
import type { OperatorSpec } from "./operators";
import type { ExpressionPart, TemplatePart, VarSpec } from "./parse";

/** A single value: numbers and booleans are written as their string form. */
export type UriTemplateScalar = string | number | boolean;

/**
 * A variable's value: a string (or number, boolean), a list, or an associative array (an
 * object, in insertion order). `null`, `undefined`, an empty list and an empty object are
 * undefined (section 2.3): the variable is skipped.
 */
export type UriTemplateValue =
  | UriTemplateScalar
  | readonly UriTemplateScalar[]
  | { readonly [key: string]: UriTemplateScalar }
  | null
  | undefined;

/** The variables given to `expand`, by name. */
export type UriTemplateVariables = { readonly [name: string]: UriTemplateValue };

type Normalized = { kind: "string"; value: string } | { kind: "list"; items: string[] } | { kind: "pairs"; pairs: [string, string][] };

function normalize(value: UriTemplateValue): Normalized | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
    return { kind: "string", value: String(value) };
  }
  if (Array.isArray(value)) {
    return value.length === 0 ? undefined : { kind: "list", items: value.map((item: UriTemplateScalar) => String(item)) };
  }
  if (typeof value === "object") {
    const pairs = Object.entries(value).map(([k, v]): [string, string] => [k, String(v)]);
    return pairs.length === 0 ? undefined : { kind: "pairs", pairs };
  }
  throw new TypeError(`A URI template value must be a string, number, boolean, list or object, got ${typeof value}`);
}

function named(spec: OperatorSpec, name: string, encoded: string): string {
  return encoded === "" ? name + spec.ifEmpty : `${name}=${encoded}`;
}

function expandVar(spec: OperatorSpec, v: VarSpec, value: Normalized): string {
  const enc = (text: string): string => encodeValue(text, spec.reserved);
  if (value.kind === "string") return expandScalar(spec, v, value.value);
  if (v.prefix !== undefined) {
    throw new TypeError(`The prefix modifier {${v.name}:${v.prefix}} cannot apply to a list or object (RFC 6570 section 2.4.1); pass a string`);
  }
  if (!v.explode) {
    const joined =
      value.kind === "list" ? value.items.map(enc).join(",") : value.pairs.map(([k, x]) => `${enc(k)},${enc(x)}`).join(",");
    return spec.named ? `${v.name}=${joined}` : joined;
  }
  if (value.kind === "list") {
    return value.items.map((item) => (spec.named ? named(spec, v.name, enc(item)) : enc(item))).join(spec.sep);
  }
  return value.pairs
    .map(([k, x]) => (spec.named ? named(spec, encodeUnreserved(k), enc(x)) : `${enc(k)}=${enc(x)}`))
    .join(spec.sep);
}

function expandScalar(spec: OperatorSpec, v: VarSpec, value: string): string {
  const text = encodeValue(v.prefix === undefined ? value : truncate(value, v.prefix, spec.reserved), spec.reserved);
  return spec.named ? named(spec, v.name, text) : text;
}

function expandExpression(part: ExpressionPart, variables: UriTemplateVariables): string {
  const spec = OPERATORS[part.op];
  let out = "";
  let first = true;
  for (const v of part.vars) {
    const raw = Object.hasOwn(variables, v.name) ? variables[v.name] : undefined;
    if (raw === undefined || raw === null) continue;
    let text: string;
    if (typeof raw === "string") text = expandScalar(spec, v, raw);
    else {
      const value = normalize(raw);
      if (value === undefined) continue;
      text = expandVar(spec, v, value);
    }
    out += (first ? spec.first : spec.sep) + text;
    first = false;
  }
  return out;
}

/** Expands parsed parts with `variables`; variables not named by the template are ignored. */
export function expandParts(parts: readonly TemplatePart[], variables: UriTemplateVariables): string {
  let out = "";
  for (const part of parts) out += part.kind === "literal" ? part.text : expandExpression(part, variables);
  return out;
}
