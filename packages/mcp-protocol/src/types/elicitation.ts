/** Elicitation in form and URL modes (MCP 2025-11-25, client/elicitation). */
import type { NotificationParams, RequestParams, Result } from "./base";
import type { TaskMetadata } from "./tasks";

/** A string field; `format` is one of the four the spec allows. */
export interface StringSchema {
  readonly type: "string";
  readonly title?: string;
  readonly description?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly format?: "email" | "uri" | "date" | "date-time";
  readonly default?: string;
}

/** A number or integer field. */
export interface NumberSchema {
  readonly type: "number" | "integer";
  readonly title?: string;
  readonly description?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly default?: number;
}

/** A boolean field. */
export interface BooleanSchema {
  readonly type: "boolean";
  readonly title?: string;
  readonly description?: string;
  readonly default?: boolean;
}

/** A single choice among plain values. */
export interface UntitledSingleSelectEnumSchema {
  readonly type: "string";
  readonly title?: string;
  readonly description?: string;
  readonly enum: readonly string[];
  readonly default?: string;
}

/** A single choice among values with display titles. */
export interface TitledSingleSelectEnumSchema {
  readonly type: "string";
  readonly title?: string;
  readonly description?: string;
  readonly oneOf: readonly { readonly const: string; readonly title: string }[];
  readonly default?: string;
}

/** Several choices among plain values. */
export interface UntitledMultiSelectEnumSchema {
  readonly type: "array";
  readonly title?: string;
  readonly description?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items: { readonly type: "string"; readonly enum: readonly string[] };
  readonly default?: readonly string[];
}

/** Several choices among values with display titles. */
export interface TitledMultiSelectEnumSchema {
  readonly type: "array";
  readonly title?: string;
  readonly description?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items: { readonly anyOf: readonly { readonly const: string; readonly title: string }[] };
  readonly default?: readonly string[];
}

/** The deprecated single choice with parallel `enumNames`; accepted, never produced. */
export interface LegacyTitledEnumSchema {
  readonly type: "string";
  readonly title?: string;
  readonly description?: string;
  readonly enum: readonly string[];
  readonly enumNames?: readonly string[];
  readonly default?: string;
}

/** Any enum field. */
export type EnumSchema =
  | UntitledSingleSelectEnumSchema
  | TitledSingleSelectEnumSchema
  | UntitledMultiSelectEnumSchema
  | TitledMultiSelectEnumSchema
  | LegacyTitledEnumSchema;

/** Any field of a form-mode elicitation schema (flat: no nesting). */
export type PrimitiveSchemaDefinition = StringSchema | NumberSchema | BooleanSchema | EnumSchema;

/** Params of a form-mode `elicitation/create`. */
export interface ElicitRequestFormParams extends RequestParams {
  /** Absent means form (the only mode before 2025-11-25). */
  readonly mode?: "form";
  readonly message: string;
  readonly requestedSchema: {
    readonly $schema?: string;
    readonly type: "object";
    readonly properties: { readonly [name: string]: PrimitiveSchemaDefinition };
    readonly required?: readonly string[];
  };
  readonly task?: TaskMetadata;
}

/** Params of a URL-mode `elicitation/create`: the user visits a URL out of band. */
export interface ElicitRequestURLParams extends RequestParams {
  readonly mode: "url";
  readonly message: string;
  /** Identifies the elicitation in `notifications/elicitation/complete`. */
  readonly elicitationId: string;
  readonly url: string;
  readonly task?: TaskMetadata;
}

/** Params of `elicitation/create`, either mode. */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

/** Result of `elicitation/create`. */
export interface ElicitResult extends Result {
  readonly action: "accept" | "decline" | "cancel";
  /** Form mode, `accept` only: the values, by field name. */
  readonly content?: { readonly [name: string]: string | number | boolean | readonly string[] };
}

/** Params of `notifications/elicitation/complete` (URL mode). */
export interface ElicitationCompleteNotificationParams extends NotificationParams {
  readonly elicitationId: string;
}
