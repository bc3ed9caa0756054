/** Argument completion (MCP 2025-11-25, server/utilities/completion). */
import type { RequestParams, Result } from "./base";

/** Refers to a prompt by name. */
export interface PromptReference {
  readonly type: "ref/prompt";
  readonly name: string;
  readonly title?: string;
}

/** Refers to a resource template by its URI template. */
export interface ResourceTemplateReference {
  readonly type: "ref/resource";
  readonly uri: string;
}

/** Params of `completion/complete`. */
export interface CompleteRequestParams extends RequestParams {
  readonly ref: PromptReference | ResourceTemplateReference;
  /** The argument being completed and what the user typed so far. */
  readonly argument: { readonly name: string; readonly value: string };
  /** Arguments already resolved, by name. */
  readonly context?: { readonly arguments?: { readonly [name: string]: string } };
}

/** Result of `completion/complete`. */
export interface CompleteResult extends Result {
  readonly completion: {
    /** At most 100 values. */
    readonly values: readonly string[];
    /** The total number of matches, which may exceed the values sent. */
    readonly total?: number;
    /** More values exist than were sent. */
    readonly hasMore?: boolean;
  };
}
