/**
 * Turns the spans `segment` found into variable values (the inverse of expansion where
 * expansion is invertible). Rules, in order of precedence:
 * - an expression whose operator character is absent, or a `{x}`/`{+x}` span that is
 *   empty, leaves its variables undefined (absent from the result);
 * - unnamed operators assign separator-split items to variables by position; an exploded
 *   variable takes every item the later variables do not need;
 * - an unencoded `,` in a non-exploded value of a U operator makes a list (a `,` inside a
 *   string would have been encoded as `%2C`); exploded items that all hold an unencoded `=`
 *   make an object;
 * - named operators (`;`, `?`, `&`) accept their pairs in any order; a pair named after no
 *   variable is claimed by the first exploded variable that has no pairs of its own (an
 *   object), and otherwise makes the URI not match, as does a repeated non-exploded name.
 */
import { decodeValue } from "./encode";
import { OPERATORS } from "./operators";
import type { OperatorSpec } from "./operators";
import type { ExpressionPart, TemplatePart, VarSpec } from "./parse";

/** A matched value: a string, a list (explode, or an unencoded comma), or an object (exploded `k=v` pairs). */
export type UriTemplateMatchValue = string | readonly string[] | { readonly [key: string]: string };

/** The variables a URI gave a template, by name; undefined variables are absent. */
export type UriTemplateMatchVariables = { readonly [name: string]: UriTemplateMatchValue };

type Out = Record<string, UriTemplateMatchValue>;
const FAIL = Symbol("no match");
type Decoded = UriTemplateMatchValue | typeof FAIL;

function strings(texts: readonly string[], reserved: boolean): string[] | typeof FAIL {
  const out: string[] = [];
  for (const text of texts) {
    const value = decodeValue(text, reserved);
    if (value === undefined) return FAIL;
    out.push(value);
  }
  return out;
}

function plain(text: string, spec: OperatorSpec, single: boolean): Decoded {
  if ((spec.reserved && single) || !text.includes(",")) return decodeValue(text, spec.reserved) ?? FAIL;
  return strings(text.split(","), spec.reserved);
}

function pairs(items: readonly (readonly [string, string])[], reserved: boolean): Decoded {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, text] of items) {
    const k = decodeValue(key, reserved);
    const v = decodeValue(text, reserved);
    if (k === undefined || v === undefined) return FAIL;
    out[k] = v;
  }
  return out;
}

function exploded(items: readonly string[], spec: OperatorSpec): Decoded {
  if (!spec.reserved && items.every((item) => item.includes("="))) {
    return pairs(items.map((item) => [item.slice(0, item.indexOf("=")), item.slice(item.indexOf("=") + 1)] as const), false);
  }
  return strings(items, spec.reserved);
}

function unnamed(part: ExpressionPart, spec: OperatorSpec, text: string, out: Out): boolean {
  const vars = part.vars;
  if (vars.length === 1 && !vars[0]!.explode) return put(out, vars[0]!.name, plain(text, spec, true));
  const items = text.split(spec.sep);
  let at = 0;
  for (let i = 0; i < vars.length && at < items.length; i++) {
    const v = vars[i]!;
    const later = vars.length - i - 1;
    const lastComma = later === 0 && spec.sep === ",";
    const take = v.explode || lastComma ? Math.max(1, items.length - at - later) : 1;
    const slice = items.slice(at, at + take);
    at += take;
    const value = v.explode ? exploded(slice, spec) : lastComma ? plain(slice.join(","), spec, false) : plain(slice[0]!, spec, false);
    if (!put(out, v.name, value)) return false;
  }
  return at >= items.length;
}

interface Pairs {
  /** Raw values by variable index. */
  readonly found: (string[] | undefined)[];
  /** Pairs named after no variable. */
  readonly rest: [string, string][];
}

/** Splits `name=value` pairs by `sep` in one pass; `undefined` when a non-exploded name repeats. */
function splitPairs(part: ExpressionPart, sep: string, text: string): Pairs | undefined {
  const found: (string[] | undefined)[] = new Array<string[] | undefined>(part.vars.length);
  const rest: [string, string][] = [];
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf(sep, start);
    if (end === -1) end = text.length;
    if (end > start) {
      const item = text.slice(start, end);
      const eq = item.indexOf("=");
      const name = eq === -1 ? item : item.slice(0, eq);
      const value = eq === -1 ? "" : item.slice(eq + 1);
      const i = part.vars.findIndex((v) => v.name === name);
      if (i === -1) rest.push([name, value]);
      else if (found[i] === undefined) found[i] = [value];
      else if (part.vars[i]!.explode) found[i]!.push(value);
      else return undefined;
    }
    start = end + 1;
  }
  return { found, rest };
}

function named(part: ExpressionPart, spec: OperatorSpec, text: string, out: Out): boolean {
  const split = splitPairs(part, spec.sep, text);
  if (split === undefined) return false;
  let objectVar: VarSpec | undefined;
  for (let i = 0; i < part.vars.length; i++) {
    const v = part.vars[i]!;
    const values = split.found[i];
    if (values === undefined) {
      if (v.explode) objectVar ??= v;
      continue;
    }
    if (!put(out, v.name, v.explode ? strings(values, false) : plain(values[0]!, spec, false))) return false;
  }
  if (split.rest.length === 0) return true;
  return objectVar !== undefined && put(out, objectVar.name, pairs(split.rest, false));
}

function same(a: UriTemplateMatchValue, b: UriTemplateMatchValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function put(out: Out, name: string, value: Decoded): boolean {
  if (value === FAIL) return false;
  const previous = out[name];
  if (previous !== undefined) return same(previous, value);
  out[name] = value;
  return true;
}

/** Decodes `spans` (from `segment`) into variables; `undefined` when the values do not decode. */
export function decodeSpans(parts: readonly TemplatePart[], spans: readonly (string | undefined)[]): UriTemplateMatchVariables | undefined {
  const out: Out = Object.create(null) as Out;
  let index = 0;
  for (const part of parts) {
    if (part.kind === "literal") continue;
    const text = spans[index++];
    const spec = OPERATORS[part.op];
    if (text === undefined || (text === "" && spec.first === "")) continue;
    const ok = spec.named ? named(part, spec, text, out) : unnamed(part, spec, text, out);
    if (!ok) return undefined;
  }
  return out;
}
