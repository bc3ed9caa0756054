/**
 * Completion providers (MCP 2025-11-25, server/utilities/completion): what a prompt argument
 * or a resource template variable offers while the user types.
 */
import type { RequestContext } from "../context";

/** What a completion provider returns: the values (all of them, or a page with `total`/`hasMore`). */
export type CompletionReturn =
  | readonly string[]
  | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/** What a completion provider knows besides the value typed so far. */
export interface CompletionContext {
  /** Arguments (or template variables) the user already filled, by name. */
  readonly arguments: { readonly [name: string]: string };
  /** The request context of `completion/complete`. */
  readonly ctx: RequestContext;
}

/**
 * Completes one argument: either a fixed list of choices (filtered by case-insensitive
 * prefix of what the user typed) or a function of the typed value. Values beyond 100 are cut
 * (with `total` and `hasMore` set), as the spec requires.
 */
export type Completer =
  | readonly string[]
  | ((value: string, context: CompletionContext) => CompletionReturn | Promise<CompletionReturn>);

/** Completers by argument or variable name. */
export type Completers = { readonly [name: string]: Completer };
