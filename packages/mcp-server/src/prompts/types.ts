/** Public types of prompts (MCP 2025-11-25, server/prompts). */
import type { ContentBlock, GetPromptResult, Icon, Meta, PromptArgument, Role } from "@proto/mcp-protocol";
import type { Completer } from "../completions/types";
import type { RequestContext } from "../context";
import type { InferInput, InferOutput, StandardJsonSchema } from "../standard-schema";

/** One declared argument (the handler's `args` are typed from the list). */
export type PromptArgumentDefinition = PromptArgument;

/**
 * A prompt's arguments: a list of declared arguments, or a Standard JSON Schema of an object
 * of string fields (zod `z.object({ code: z.string() })`, arktype, valibot through
 * `toStandardJsonSchema`): its properties are listed as the arguments (description, title,
 * required from the JSON Schema) and the library validates them (refinements, transforms).
 */
export type PromptArgumentsLike = readonly PromptArgumentDefinition[] | StandardJsonSchema;

/** What `prompts/list` shows of a prompt. */
export interface PromptDefinition<A extends PromptArgumentsLike = readonly PromptArgumentDefinition[]> {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** Declared arguments (a list, or a Standard JSON Schema); a missing required one is answered -32602 before the handler runs. */
  readonly arguments?: A;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /** Completion of arguments for `completion/complete` with a `ref/prompt` reference, by argument name. */
  readonly complete?: { readonly [K in ArgumentNames<A>]?: Completer };
}

type ArgumentNames<A extends PromptArgumentsLike> = A extends StandardJsonSchema
  ? keyof InferInput<A> & string
  : A extends readonly PromptArgumentDefinition[]
    ? A[number]["name"]
    : never;

type Named<A, R extends boolean> = A extends { readonly name: infer N extends string; readonly required?: infer Q }
  ? (Q extends true ? true : false) extends R
    ? N
    : never
  : never;

/** The handler's arguments: required ones are strings, the others may be absent. */
export type PromptArgs<A extends PromptArgumentsLike> = A extends StandardJsonSchema
  ? InferOutput<A>
  : A extends readonly PromptArgumentDefinition[]
    ? PromptArgumentDefinition[] extends A
      ? { readonly [name: string]: string | undefined }
      : { readonly [K in Named<A[number], true>]: string } & { readonly [K in Named<A[number], false>]?: string }
    : never;

/** One message as a handler may write it: `content` may be plain text. */
export interface PromptMessageInput {
  readonly role: Role;
  readonly content: string | ContentBlock;
}

/**
 * What a prompt handler returns: a string (one user text message), a list of messages, or a
 * full `GetPromptResult` (text, image, audio, embedded resources, resource links).
 */
export type PromptReturn = string | readonly PromptMessageInput[] | (Omit<GetPromptResult, "messages"> & { readonly messages: readonly PromptMessageInput[] });

/** Builds a prompt's messages from its validated arguments. */
export type PromptHandler<A extends PromptArgumentsLike = readonly PromptArgumentDefinition[]> = (
  args: PromptArgs<A>,
  ctx: RequestContext,
) => PromptReturn | Promise<PromptReturn>;

/** A registered prompt. */
export interface PromptHandle {
  readonly name: string;
  /** Unregisters the prompt (sends `list_changed`). */
  remove(): void;
}
