/**
 * The RFC 6570 operator table (appendix A) and the character classes the matcher uses.
 */

/** An expression operator (RFC 6570 section 2.2); `""` is simple string expansion. */
export type UriTemplateOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

/** How one operator expands (RFC 6570 appendix A). */
export interface OperatorSpec {
  /** Written before the first defined variable. */
  readonly first: string;
  /** Written between defined variables and between exploded members. */
  readonly sep: string;
  /** Name=value pairs (`;`, `?`, `&`). */
  readonly named: boolean;
  /** Written after the name when the value is empty (named operators). */
  readonly ifEmpty: string;
  /** Reserved and fragment expansion: reserved characters and pct-triplets pass unencoded. */
  readonly reserved: boolean;
}

/** The operator table of RFC 6570 appendix A. */
export const OPERATORS: { readonly [op in UriTemplateOperator]: OperatorSpec } = {
  "": { first: "", sep: ",", named: false, ifEmpty: "", reserved: false },
  "+": { first: "", sep: ",", named: false, ifEmpty: "", reserved: true },
  "#": { first: "#", sep: ",", named: false, ifEmpty: "", reserved: true },
  ".": { first: ".", sep: ".", named: false, ifEmpty: "", reserved: false },
  "/": { first: "/", sep: "/", named: false, ifEmpty: "", reserved: false },
  ";": { first: ";", sep: ";", named: true, ifEmpty: "", reserved: false },
  "?": { first: "?", sep: "&", named: true, ifEmpty: "=", reserved: false },
  "&": { first: "&", sep: "&", named: true, ifEmpty: "=", reserved: false },
};

/** True for one of the eight operator characters (the reserved `=,!@|` are not operators). */
export function isOperator(char: string): char is Exclude<UriTemplateOperator, ""> {
  return char.length === 1 && "+#./;?&".includes(char);
}

/** RFC 3986 reserved characters: gen-delims and sub-delims. */
export const RESERVED = ":/?#[]@!$&'()*+,;=";

/** True for an RFC 3986 unreserved character code (ALPHA / DIGIT / "-" / "." / "_" / "~"). */
export function isUnreservedCode(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5f ||
    code === 0x7e
  );
}

/** True for an ASCII hex digit code. */
export function isHexCode(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

/**
 * The characters an expression's expansion may contain, as a 128-entry table for ASCII
 * (non-ASCII is always accepted: a client that forgot to percent-encode still matches).
 * Reserved characters are excluded unless the operator passes them (`+`, `#`) or the
 * expression writes them itself (its separator, the list comma, `=` of named or exploded
 * values); everything else printable is accepted leniently. `delimiters` are taken out of a
 * reserved expression's class: `?` when a query expression follows it, `#` when a fragment
 * expression does, so `{+path}{?q}` splits where a reader expects.
 */
export function expressionClass(
  op: UriTemplateOperator,
  varCount: number,
  anyExplode: boolean,
  anyPlain: boolean,
  delimiters: string,
): Uint8Array {
  const spec = OPERATORS[op];
  const table = new Uint8Array(128);
  for (let code = 0x20; code < 0x7f; code++) table[code] = 1;
  if (spec.reserved) {
    for (const char of delimiters) table[char.charCodeAt(0)] = 0;
    return table;
  }
  for (const char of RESERVED) table[char.charCodeAt(0)] = 0;
  if (varCount > 1 || anyExplode) table[spec.sep.charCodeAt(0)] = 1;
  if (anyPlain) table[0x2c] = 1; // "," joins non-exploded lists
  if (spec.named || anyExplode) table[0x3d] = 1; // "="
  return table;
}
