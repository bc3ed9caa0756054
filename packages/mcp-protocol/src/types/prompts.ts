/** Prompts (MCP 2025-11-25, server/prompts). */
import type { Icons, Meta, PaginatedRequestParams, PaginatedResult, RequestParams, Result, Role } from "./base";
import type { ContentBlock } from "./content";

/** An argument a prompt accepts. */
export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt or prompt template. */
export interface Prompt extends Icons {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
  readonly _meta?: Meta;
}

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: Role;
  readonly content: ContentBlock;
}

/** Params of `prompts/list`. */
export type ListPromptsRequestParams = PaginatedRequestParams;

/** Result of `prompts/list`. */
export interface ListPromptsResult extends PaginatedResult {
  readonly prompts: readonly Prompt[];
}

/** Params of `prompts/get`. */
export interface GetPromptRequestParams extends RequestParams {
  readonly name: string;
  readonly arguments?: { readonly [name: string]: string };
}

/** Result of `prompts/get`. */
export interface GetPromptResult extends Result {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
}
