/**
 * RFC 6570 URI templates: `createUriTemplate(text)` parses once, then expands (levels 1 to
 * 4: every operator, prefix and explode modifiers) and matches URIs back to variables in
 * linear time (see `match.ts`).
 *
 * A match gives every variable a value that is not empty: RFC 6570 expands an undefined or
 * empty variable to nothing, so `test://items//data` is an expansion of `test://items/{id}/data`
 * with no `id`, but a handler that asks for an id must never be reached without one. A template
 * says which variables may be left out with `optional` (typically query parameters).
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
  /** The variables a matching URI may leave undefined or empty (`UriTemplateOptions.optional`). */
  readonly optionalVariables: readonly string[];
  /** Expands the template with `variables` (RFC 6570 section 3). Throws a `TypeError` for a prefix modifier on a list or object. */
  expand(variables: UriTemplateVariables): string;
  /**
   * Matches `uri` against the template and returns the variables it carries, or
   * `undefined` when it does not match. Linear in `uri.length`, whatever the input; each
   * expression takes the longest span that lets the rest of the URI match. A URI that leaves
   * a variable undefined or empty (`""`) does not match, unless the variable is optional; then
   * it is absent from the result when undefined.
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

/** Options of `createUriTemplate`. */
export interface UriTemplateOptions {
  /**
   * Variables a matching URI may leave undefined or empty, e.g. `["limit"]` for
   * `items{?limit}` so that `items` matches too. Default none: every variable needs a value.
   */
  readonly optional?: readonly string[];
}

function optionalOf(template: string, variableNames: readonly string[], options: UriTemplateOptions | undefined): readonly string[] {
  const optional = options?.optional ?? [];
  if (!Array.isArray(optional)) throw new TypeError(`URI template "${template}": optional must be an array of variable names`);
  for (const name of optional as readonly unknown[]) {
    if (typeof name !== "string" || !variableNames.includes(name)) {
      throw new TypeError(`URI template "${template}": optional names ${JSON.stringify(name)}, which is no variable of the template (variables: ${variableNames.join(", ")})`);
    }
  }
  return Object.freeze([...new Set(optional)]);
}

/** True when every required variable got a value that is not empty. */
function hasRequired(variables: UriTemplateMatchVariables, required: readonly string[]): boolean {
  for (let i = 0; i < required.length; i++) {
    const value = variables[required[i]!];
    if (value === undefined || value === "") return false;
  }
  return true;
}

/**
 * Parses an RFC 6570 URI template. Throws a `TypeError` naming the position of the first
 * syntax error, or an `optional` name that is no variable. Templates are bounded (8,192
 * characters, 128 expressions) because they may come from other servers.
 */
export function createUriTemplate(template: string, options?: UriTemplateOptions): UriTemplate {
  const parts = parseTemplate(template);
  let program: MatchProgram | undefined;
  const first = parts[0];
  const variableNames = names(parts);
  const optionalVariables = optionalOf(template, variableNames, options);
  const required = variableNames.filter((name) => !optionalVariables.includes(name));
  return {
    template,
    variableNames,
    literalPrefix: first?.kind === "literal" ? first.text : "",
    optionalVariables,
    expand: (variables) => expandParts(parts, variables),
    match(uri) {
      if (typeof uri !== "string") return undefined;
      program ??= compileMatcher(parts);
      const spans = segment(program, uri);
      const variables = spans === undefined ? undefined : decodeSpans(parts, spans);
      return variables !== undefined && hasRequired(variables, required) ? variables : undefined;
    },
    toString: () => template,
  };
}
