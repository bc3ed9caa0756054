/**
 * Parses an RFC 6570 URI template (section 2) into literal and expression parts. Linear in
 * the template's length; a malformed template throws a `TypeError` naming the position.
 */
import { encodeReserved } from "./encode";
import { isOperator } from "./operators";
import type { UriTemplateOperator } from "./operators";

/** Longest template accepted: templates may come from other servers (a gateway), so they are bounded. */
export const MAX_TEMPLATE_LENGTH = 8192;
/** Most expressions one template may hold. */
export const MAX_TEMPLATE_EXPRESSIONS = 128;
/** Largest prefix modifier (RFC 6570: max-length is 1 to 4 digits, not starting with 0). */
export const MAX_PREFIX_LENGTH = 9999;

/** One variable of an expression (`name`, `name:3`, `name*`). */
export interface VarSpec {
  readonly name: string;
  /** The explode modifier `*` (section 2.4.2). */
  readonly explode: boolean;
  /** The prefix modifier `:n` (section 2.4.1), when present. */
  readonly prefix: number | undefined;
}

/** Text copied as is; `text` is already encoded as expansion writes it (section 3.1). */
export interface LiteralPart {
  readonly kind: "literal";
  readonly text: string;
}

/** One `{...}` expression. */
export interface ExpressionPart {
  readonly kind: "expression";
  readonly op: UriTemplateOperator;
  readonly vars: readonly VarSpec[];
}

/** A parsed template: literals and expressions in order, adjacent literals merged. */
export type TemplatePart = LiteralPart | ExpressionPart;

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
const PREFIX = /^[1-9][0-9]{0,3}$/;

function fail(template: string, index: number, problem: string): never {
  const shown = template.length > 80 ? `${template.slice(0, 77)}...` : template;
  throw new TypeError(
    `Invalid URI template "${shown}" at character ${index + 1}: ${problem}. ` +
      `Write RFC 6570 syntax such as "file:///{+path}" or "users/{id}{?fields*}".`,
  );
}

function parseVarSpec(template: string, at: number, text: string): VarSpec {
  const explode = text.endsWith("*");
  const colon = text.indexOf(":");
  const name = explode ? text.slice(0, -1) : colon === -1 ? text : text.slice(0, colon);
  if (!VARNAME.test(name)) {
    fail(template, at, `"${name}" is not a variable name (letters, digits, "_", percent-triplets, inner dots)`);
  }
  if (colon === -1 || explode) {
    if (explode && name.includes(":")) fail(template, at, `"${text}" combines a prefix and an explode modifier`);
    return { name, explode, prefix: undefined };
  }
  const digits = text.slice(colon + 1);
  if (!PREFIX.test(digits)) fail(template, at + colon + 1, `prefix length "${digits}" must be 1 to ${MAX_PREFIX_LENGTH}`);
  return { name, explode: false, prefix: Number(digits) };
}

function parseExpression(template: string, open: number, close: number): ExpressionPart {
  let body = template.slice(open + 1, close);
  if (body === "") fail(template, open, "empty expression");
  const opChar = body.charAt(0);
  let op: UriTemplateOperator = "";
  if (isOperator(opChar)) {
    op = opChar;
    body = body.slice(1);
  } else if ("=,!@|".includes(opChar)) {
    fail(template, open + 1, `operator "${opChar}" is reserved for future extensions`);
  }
  const vars: VarSpec[] = [];
  let at = open + 1 + (op === "" ? 0 : 1);
  for (const text of body.split(",")) {
    vars.push(parseVarSpec(template, at, text));
    at += text.length + 1;
  }
  return { kind: "expression", op, vars };
}

/** Parses `template`; throws a `TypeError` that says where and what is wrong. */
export function parseTemplate(template: string): TemplatePart[] {
  if (typeof template !== "string") throw new TypeError("A URI template must be a string");
  if (template.length > MAX_TEMPLATE_LENGTH) fail(template, MAX_TEMPLATE_LENGTH, `longer than ${MAX_TEMPLATE_LENGTH} characters`);
  const parts: TemplatePart[] = [];
  let literal = "";
  let expressions = 0;
  for (let i = 0; i < template.length; i++) {
    const char = template.charAt(i);
    if (char === "}") fail(template, i, `"}" without a matching "{"`);
    if (char !== "{") {
      const next = template.indexOf("{", i);
      const end = next === -1 ? template.length : next;
      const stray = template.indexOf("}", i);
      if (stray !== -1 && stray < end) fail(template, stray, `"}" without a matching "{"`);
      literal += template.slice(i, end);
      i = end - 1;
      continue;
    }
    const close = template.indexOf("}", i);
    const reopen = template.indexOf("{", i + 1);
    if (close === -1 || (reopen !== -1 && reopen < close)) fail(template, i, `"{" is never closed`);
    if (++expressions > MAX_TEMPLATE_EXPRESSIONS) fail(template, i, `more than ${MAX_TEMPLATE_EXPRESSIONS} expressions`);
    if (literal !== "") parts.push({ kind: "literal", text: encodeReserved(literal) });
    literal = "";
    parts.push(parseExpression(template, i, close));
    i = close;
  }
  if (literal !== "") parts.push({ kind: "literal", text: encodeReserved(literal) });
  return parts;
}
