/**
 * Standard Schema and Standard JSON Schema, the interfaces zod (4.2+), valibot (through
 * `toStandardJsonSchema` of `@valibot/to-json-schema`) and arktype implement
 * (standardschema.dev). Vendored, as the spec invites ("copy/paste the code block into your
 * codebase"), so that no schema package is a dependency of ours, not even a type-only one our
 * published declarations would need: these are the interfaces of `@standard-schema/spec` 1.1.0
 * (MIT License, Copyright (c) 2024 Colin McDonnell), written without its `namespace`s
 * (house style). `standard-schema.test.ts` checks them against the package (a pinned
 * devDependency) both ways, so they cannot drift.
 */

/** One problem a Standard Schema found. */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What `~standard.validate` returns: a value, or issues. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** The input and output types a Standard Schema carries (type-level only). */
export interface StandardTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** Options of `~standard.jsonSchema.input()` / `.output()`. */
export interface StandardJsonSchemaOptions {
  /** `"draft-2020-12"` here: the dialect MCP 2025-11-25 advertises by default. */
  readonly target: "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The `~standard` properties of a schema that validates and converts to JSON Schema. */
export interface StandardJsonSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly types?: StandardTypes<Input, Output> | undefined;
  readonly validate: (
    value: unknown,
    options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
  ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  readonly jsonSchema: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
}

/**
 * A schema that is both a Standard Schema (`~standard.validate`) and a Standard JSON Schema
 * (`~standard.jsonSchema`): what `inputSchema`, `outputSchema`, prompt `arguments` and
 * `requestedSchema` accept besides plain JSON Schema.
 */
export interface StandardJsonSchema<Input = unknown, Output = Input> {
  readonly "~standard": StandardJsonSchemaProps<Input, Output>;
}

/** The type a Standard Schema accepts. */
export type InferInput<S extends StandardJsonSchema> = NonNullable<S["~standard"]["types"]>["input"];

/** The type a Standard Schema produces (after its transforms). */
export type InferOutput<S extends StandardJsonSchema> = NonNullable<S["~standard"]["types"]>["output"];
