/**
 * Types of form-mode elicitation with the accepted content typed from an `as const` schema
 * (MCP 2025-11-25, client/elicitation "Requested Schema").
 */
import type { PrimitiveSchemaDefinition } from "@proto/mcp-protocol";
import type { InferOutput, StandardJsonSchema } from "../standard-schema";

/** A flat object schema of primitive fields: what form mode may ask for. */
export interface ElicitationSchema {
  readonly $schema?: string;
  readonly type: "object";
  readonly properties: { readonly [name: string]: PrimitiveSchemaDefinition };
  readonly required?: readonly string[];
}

/** The value type of one field. */
export type ElicitedValue<F> = F extends { readonly type: "boolean" }
  ? boolean
  : F extends { readonly type: "number" | "integer" }
    ? number
    : F extends { readonly type: "array"; readonly items: { readonly enum: readonly (infer E)[] } }
      ? E[]
      : F extends { readonly type: "array"; readonly items: { readonly anyOf: readonly { readonly const: infer C }[] } }
        ? C[]
        : F extends { readonly type: "array" }
          ? string[]
          : F extends { readonly enum: readonly (infer E)[] }
            ? E
            : F extends { readonly oneOf: readonly { readonly const: infer C }[] }
              ? C
              : string;

type RequiredNames<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;
type Props<S extends ElicitationSchema> = S["properties"];

/** The content of an accepted form: required fields present, the others optional. */
export type ElicitedContent<S extends ElicitationSchema> = {
  -readonly [K in keyof Props<S> as K extends RequiredNames<S> ? K : never]: ElicitedValue<Props<S>[K]>;
} & {
  -readonly [K in keyof Props<S> as K extends RequiredNames<S> ? never : K]?: ElicitedValue<Props<S>[K]>;
};

/**
 * What `requestedSchema` accepts: a flat JSON Schema (`ElicitationSchema`), or a Standard JSON
 * Schema of a flat object (zod, valibot through `toStandardJsonSchema`, arktype), sent as its
 * JSON Schema 2020-12; the answer is then also validated by the library.
 */
export type ElicitationSchemaLike = ElicitationSchema | StandardJsonSchema;

/** The accepted content for a schema: the library's output type, or `ElicitedContent`. */
export type ElicitedContentOf<S extends ElicitationSchemaLike> = S extends StandardJsonSchema
  ? InferOutput<S>
  : S extends ElicitationSchema
    ? ElicitedContent<S>
    : never;

/** The answer to a form-mode elicitation: content only when the user accepted. */
export type ElicitationResult<S extends ElicitationSchemaLike> =
  | { readonly action: "accept"; readonly content: ElicitedContentOf<S> }
  | { readonly action: "decline" | "cancel"; readonly content?: undefined };

/** Params of `ctx.elicit()`: the form-mode params of `elicitation/create`. */
export interface FormElicitation<S extends ElicitationSchemaLike> {
  /** What the user is asked, shown with the form. */
  readonly message: string;
  /** The form: a flat object of string, number, boolean and enum fields (JSON Schema or Standard JSON Schema). */
  readonly requestedSchema: S;
}

/** Params of `ctx.elicitUrl()`. */
export interface UrlElicitation {
  /** Why the user should visit the URL. */
  readonly message: string;
  /** Where the user completes the interaction out of band (an `https:` URL). */
  readonly url: string;
  /** Identifies this elicitation; a random UUID when omitted. */
  readonly elicitationId?: string;
}

/** The answer to a URL-mode elicitation: whether the user agreed to open the URL (completion is separate). */
export interface UrlElicitationResult {
  readonly action: "accept" | "decline" | "cancel";
  /** The id to pass to `completeElicitation()` once the out-of-band interaction is done. */
  readonly elicitationId: string;
}
