/**
 * Compiling JSON Schemas once, at registration, with ajv: 2020-12 by default, draft-07 /
 * draft-06 or 2019-09 when the schema's `$schema` says so. The advertised schema is never
 * changed; validators are compiled from a copy without `$schema`.
 *
 * Checking a schema against its meta-schema needs the meta-schema compiled first (hundreds
 * of milliseconds), so that check uses one process-wide ajv instance per dialect, created on
 * first use; each server compiles its tools' schemas in its own instances.
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

const BASE: Options = { strict: false, allErrors: true, validateFormats: false, logger: false };
const metaCheckers = new Map<Dialect, AjvInstance>();

function createAjv(dialect: Dialect, options: Options): AjvInstance {
  return dialect === "2020-12" ? new Ajv2020(options) : dialect === "2019-09" ? new Ajv2019(options) : new Ajv(options);
}

/** Throws a `TypeError` naming `where` when `schema` is not valid against its dialect's meta-schema. */
function checkAgainstMeta(schema: object, dialect: Dialect, where: string): void {
  let meta = metaCheckers.get(dialect);
  if (meta === undefined) metaCheckers.set(dialect, (meta = createAjv(dialect, BASE)));
  if (meta.validateSchema(schema) !== true) {
    throw new TypeError(`${where}: invalid JSON Schema: ${meta.errorsText(meta.errors, { dataVar: "schema" })}`);
  }
}

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
    ...BASE,
    verbose: true,
    validateSchema: false,
    logger: { log() {}, warn: (...args: unknown[]) => logger.warn(`ajv: ${args.map(String).join(" ")}`), error: (...args: unknown[]) => logger.error(`ajv: ${args.map(String).join(" ")}`) },
  };
  const shared = new Map<Dialect, AjvInstance>();
  const create = (dialect: Dialect): AjvInstance => createAjv(dialect, options);
  const instance = (dialect: Dialect): AjvInstance => {
    let ajv = shared.get(dialect);
    if (ajv === undefined) shared.set(dialect, (ajv = create(dialect)));
    return ajv;
  };

  function build(copy: { [key: string]: unknown }, dialect: Dialect, where: string): { fn: ValidateFunction; owner: AjvInstance } {
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
    return { fn, owner: ajv };
  }

  /**
   * Checks `schema` now and compiles it now, or on first use when `lazy` (lazy tools keep
   * start-up fast). Throws a `TypeError` that names `where` when the schema is invalid.
   */
  function compile(schema: { readonly [key: string]: unknown }, where: string, lazy = false): CompiledSchema {
    const dialect = dialectOf(schema, where);
    const copy: { [key: string]: unknown } = { ...schema };
    delete copy.$schema;
    checkAgainstMeta(copy, dialect, where);
    let built = lazy ? undefined : build(copy, dialect, where);
    let released = false;
    const get = (): { fn: ValidateFunction; owner: AjvInstance } => (built ??= build(copy, dialect, where));
    return {
      validate: (value) => get().fn(value) as boolean,
      get errors() {
        return built?.fn.errors ?? [];
      },
      release: () => {
        if (released || built === undefined) return;
        released = true;
        built.owner.removeSchema(copy);
      },
    };
  }

  return { compile };
}

/** The compiler type. */
export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;
