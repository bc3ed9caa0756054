/**
 * RFC 6570 URI templates: `createUriTemplate(text)` parses once, then expands (levels 1 to
 * 4: every operator, prefix and explode modifiers) and matches URIs back to variables in
 * linear time (see `match.ts`).
 */
import { decodeSpans } from "./decode";
import type { UriTemplateMatchVariables } from "./decode";
import { expandParts } from "./expand";
import type { UriTemplateVariables } from "./expand";
import { segment } from "./match";
import { compileMatcher } from "./program";
import type { MatchProgram } from "./program";
import { parseTemplate } from "./parse";
import type { TemplatePart } from "./parse";

/** A parsed RFC 6570 URI template. Immutable; safe to share between sessions. */
export interface UriTemplate {
  /** The template text, as given. */
  readonly template: string;
  /** Every variable name, in order of first appearance. */
  readonly variableNames: readonly string[];
  /** The literal text before the first expression (useful to route or sort templates). */
  readonly literalPrefix: string;
  /** Expands the template with `variables` (RFC 6570 section 3). Throws a `TypeError` for a prefix modifier on a list or object. */
  expand(variables: UriTemplateVariables): string;
  /**
   * Matches `uri` against the template and returns the variables it carries, or
   * `undefined` when it does not match. Linear in `uri.length`, whatever the input; each
   * expression takes the longest span that lets the rest of the URI match. Undefined
   * variables are absent from the result.
   */
  match(uri: string): UriTemplateMatchVariables | undefined;
  /** The template text. */
  toString(): string;
}

/** True when `text` contains at least one `{expression}`, i.e. it is a template, not a plain URI. */
export function isUriTemplate(text: string): boolean {
  const open = text.indexOf("{");
  return open !== -1 && text.indexOf("}", open) !== -1;
}

function names(parts: readonly TemplatePart[]): string[] {
  const seen = new Set<string>();
  for (const part of parts) if (part.kind === "expression") for (const v of part.vars) seen.add(v.name);
  return [...seen];
}

/**
 * Parses an RFC 6570 URI template. Throws a `TypeError` naming the position of the first
 * syntax error. Templates are bounded (8,192 characters, 128 expressions) because they may
 * come from other servers.
 */
export function createUriTemplate(template: string): UriTemplate {
  const parts = parseTemplate(template);
  let program: MatchProgram | undefined;
  const first = parts[0];
  return {
    template,
    variableNames: names(parts),
    literalPrefix: first?.kind === "literal" ? first.text : "",
    expand: (variables) => expandParts(parts, variables),
    match(uri) {
      if (typeof uri !== "string") return undefined;
      program ??= compileMatcher(parts);
      const spans = segment(program, uri);
      return spans === undefined ? undefined : decodeSpans(parts, spans);
    },
    toString: () => template,
  };
}
