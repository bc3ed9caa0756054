/**
 * Compiling JSON Schemas once, at registration, with ajv: 2020-12 by default, draft-07 /
 * draft-06 or 2019-09 when the schema's `$schema` says so. The advertised schema is never
 * changed; validators are compiled from a copy without `$schema`.
 */
import { Ajv } from "ajv";
import type { ErrorObject, Options, ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Logger } from "@proto/jsonrpc";

/** A compiled schema. */
export interface CompiledSchema {
  /** True when `value` is valid; `errors` then holds nothing. */
  validate(value: unknown): boolean;
  /** The errors of the last failed `validate`. */
  readonly errors: readonly ErrorObject[];
  /** Releases the compiled validator (when its tool is removed). */
  release(): void;
}

/** The JSON Schema dialects we compile. */
export type Dialect = "2020-12" | "2019-09" | "draft-07";

type AjvInstance = Ajv | Ajv2019 | Ajv2020;

/** Reads the dialect from `$schema`; throws a `TypeError` for a dialect ajv cannot run. */
export function dialectOf(schema: { readonly $schema?: unknown }, where: string): Dialect {
  const id = schema.$schema;
  if (id === undefined) return "2020-12";
  if (typeof id !== "string") throw new TypeError(`${where}: "$schema" must be a string`);
  if (id.includes("2020-12")) return "2020-12";
  if (id.includes("2019-09")) return "2019-09";
  if (/draft-0[67]/.test(id)) return "draft-07";
  throw new TypeError(`${where}: unsupported "$schema" ${JSON.stringify(id)}; use JSON Schema 2020-12 (default), 2019-09 or draft-07`);
}

/** Creates the compiler a server uses for every tool; one ajv instance per dialect, created on first use. */
export function createSchemaCompiler(logger: Logger) {
  const options: Options = {
    strict: false,
    allErrors: true,
    verbose: true,
    validateFormats: false,
    logger: { log() {}, warn: (...args: unknown[]) => logger.warn(`ajv: ${args.map(String).join(" ")}`), error: (...args: unknown[]) => logger.error(`ajv: ${args.map(String).join(" ")}`) },
  };
  const shared = new Map<Dialect, AjvInstance>();
  const create = (dialect: Dialect): AjvInstance =>
    dialect === "2020-12" ? new Ajv2020(options) : dialect === "2019-09" ? new Ajv2019(options) : new Ajv(options);
  const instance = (dialect: Dialect): AjvInstance => {
    let ajv = shared.get(dialect);
    if (ajv === undefined) shared.set(dialect, (ajv = create(dialect)));
    return ajv;
  };

  /** Compiles `schema`; throws a `TypeError` that names `where` when the schema is invalid. */
  function compile(schema: { readonly [key: string]: unknown }, where: string): CompiledSchema {
    const dialect = dialectOf(schema, where);
    const copy: { [key: string]: unknown } = { ...schema };
    delete copy.$schema;
    let ajv = instance(dialect);
    let fn: ValidateFunction;
    try {
      fn = ajv.compile(copy);
    } catch (error) {
      // A `$id` already used by another tool's schema: give this one its own instance.
      if (!(error instanceof Error && /already exists/.test(error.message))) {
        throw new TypeError(`${where}: invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
      }
      ajv = create(dialect);
      fn = ajv.compile(copy);
    }
    const owner = ajv;
    return {
      validate: (value) => fn(value) as boolean,
      get errors() {
        return fn.errors ?? [];
      },
      release: () => void owner.removeSchema(copy),
    };
  }

  return { compile };
}

/** The compiler type. */
export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;
