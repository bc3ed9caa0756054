/**
 * A set of URI templates, each with a value, that finds which one a URI matches.
 */
import type { UriTemplateMatchVariables } from "./decode";
import { createUriTemplate } from "./template";
import type { UriTemplate } from "./template";

/** What `match` found: the template, its value and the variables the URI carried. */
export interface UriTemplateRoute<T> {
  readonly template: UriTemplate;
  readonly value: T;
  readonly variables: UriTemplateMatchVariables;
}

/** A mutable set of templates. Owned by its creator; holds no resources. */
export interface UriTemplateRouter<T> {
  /** Adds a template (text or parsed) with its value; a template already present is replaced. */
  add(template: string | UriTemplate, value: T): void;
  /** Removes a template by its text; true when it was present. */
  remove(template: string): boolean;
  /**
   * The first matching template, most specific first: the longest literal prefix wins, and
   * among equal prefixes the one added first. Linear in `uri.length` per candidate; a
   * template whose literal prefix or suffix differs is rejected without scanning.
   */
  match(uri: string): UriTemplateRoute<T> | undefined;
  /** How many templates are registered. */
  readonly size: number;
}

interface Entry<T> {
  readonly template: UriTemplate;
  readonly value: T;
  readonly order: number;
}

/** Creates an empty template router. */
export function createUriTemplateRouter<T>(): UriTemplateRouter<T> {
  const entries = new Map<string, Entry<T>>();
  let sorted: Entry<T>[] | undefined;
  let counter = 0;
  const ordered = (): Entry<T>[] =>
    (sorted ??= [...entries.values()].sort(
      (a, b) => b.template.literalPrefix.length - a.template.literalPrefix.length || a.order - b.order,
    ));
  return {
    add(template, value) {
      const parsed = typeof template === "string" ? createUriTemplate(template) : template;
      const previous = entries.get(parsed.template);
      entries.set(parsed.template, { template: parsed, value, order: previous?.order ?? counter++ });
      sorted = undefined;
    },
    remove(template) {
      sorted = undefined;
      return entries.delete(template);
    },
    match(uri) {
      for (const entry of ordered()) {
        if (!uri.startsWith(entry.template.literalPrefix)) continue;
        const variables = entry.template.match(uri);
        if (variables !== undefined) return { template: entry.template, value: entry.value, variables };
      }
      return undefined;
    },
    get size() {
      return entries.size;
    },
  };
}
