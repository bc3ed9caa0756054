/**
 * JSON Schema validation with compiled validators cached by schema text. Schemas default to
 * 2020-12 (MCP 2025-11-25, server/tools "Output Schema"); a `$schema` naming draft-07 or
 * older uses ajv's draft-07 dialect. Formats are not asserted (annotations only).
 */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

/** The outcome of one validation. */
export type ValidationResult = { readonly ok: true } | { readonly ok: false; readonly message: string; readonly errors: readonly unknown[] };

/** Validates values against schemas, compiling each distinct schema once. */
export interface SchemaValidator {
  /** Validates `value`; throws an `Error` saying why when `schema` cannot be compiled. */
  validate(schema: object, value: unknown): ValidationResult;
}

/** Largest schema (as JSON text) the validator compiles; bigger ones are refused, not compiled. */
export const MAX_SCHEMA_CHARS = 1_000_000;

const OPTIONS = { strict: false, allErrors: false, validateFormats: false, logger: false } as const;

function isDraft07OrOlder(schema: object): boolean {
  const uri = (schema as { $schema?: unknown }).$schema;
  return typeof uri === "string" && /draft-0[4-7]/.test(uri);
}

/** Creates a validator whose cache holds at most `maxEntries` compiled schemas (least recently used go first). */
export function createSchemaValidator(maxEntries = 256): SchemaValidator {
  let modern: Ajv2020 | undefined;
  let legacy: Ajv | undefined;
  const cache = new Map<string, ValidateFunction>();

  function compile(schema: object, key: string): ValidateFunction {
    // The root `$id` and `$schema` are dropped: ids of different servers must not collide in
    // one ajv instance, and the dialect was chosen here already.
    const { $id: _id, $schema: _schema, ...rest } = schema as { [key: string]: unknown };
    const ajv = isDraft07OrOlder(schema) ? (legacy ??= new Ajv(OPTIONS)) : (modern ??= new Ajv2020(OPTIONS));
    let validate: ValidateFunction;
    try {
      validate = ajv.compile(rest);
    } catch (error) {
      throw new Error(`the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    cache.set(key, validate);
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
    return validate;
  }

  return {
    validate(schema, value) {
      const key = JSON.stringify(schema);
      if (key.length > MAX_SCHEMA_CHARS) throw new Error(`the schema is ${key.length} characters long; the limit is ${MAX_SCHEMA_CHARS}`);
      let validate = cache.get(key);
      if (validate !== undefined) {
        cache.delete(key);
        cache.set(key, validate);
      } else validate = compile(schema, key);
      if (validate(value)) return { ok: true };
      const errors = validate.errors ?? [];
      const message = errors.map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
      return { ok: false, message, errors };
    },
  };
}

let shared: SchemaValidator | undefined;

/**
 * The validator every client shares: schemas are keyed by their text and compiled without
 * their root `$id`, so one server's schemas can never change how another's are checked.
 */
export function sharedSchemaValidator(): SchemaValidator {
  return (shared ??= createSchemaValidator(512));
}
