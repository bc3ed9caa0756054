/**
 * Compiling JSON Schemas with ajv (or, where code generation is refused, building the
 * interpreting validator of interpreted-validation.ts), once per schema, off the start-up
 * path: 2020-12 by default,
 * draft-07 / draft-06 or 2019-09 when the schema's `$schema` says so. The advertised schema is
 * never changed; validators are compiled from a copy without `$schema`.
 *
 * Cold start: importing ajv costs ~100 ms and compiling a schema ~10 ms, so registration only
 * reads the dialect and checks every keyword (schema-check.ts, synchronous, no ajv); ajv is
 * imported with a dynamic `import()` and each schema compiled the first time it is needed
 * (`prepare()`: a tool's first call, or `server.ready()`), without a second pass against the
 * meta-schema (an ajv instance compiling the 2020-12 meta-schema costs ~4 MiB of resident memory
 * and the first call's latency). What only a compiler finds (an unresolvable `$ref`) is a
 * `TypeError` then. The outcome, a validator or a `TypeError`, is kept: a schema is compiled at
 * most once; each server compiles its tools' schemas in its own instances.
 */
import type { Ajv, Options } from "ajv";
import type { Logger } from "@proto/jsonrpc";
import { createInterpretedValidator, loadInterpreter } from "./interpreted-validation";
import type { SchemaError } from "./validation-report";

/** A schema compiled on first need. */
export interface CompiledSchema {
  /** True once `prepare()` has succeeded: `validate` may be called synchronously. */
  readonly ready: boolean;
  /**
   * Loads ajv and compiles the schema (once; later calls return the same promise). Rejects
   * with a `TypeError` naming the tool when the schema is invalid; that error is also logged.
   */
  prepare(): Promise<void>;
  /** True when `value` is valid; `errors` then holds nothing. Throws before `prepare()` has resolved. */
  validate(value: unknown): boolean;
  /** The errors of the last failed `validate`. */
  readonly errors: readonly SchemaError[];
  /** Releases the compiled validator (when its tool is removed). */
  release(): void;
}

/** The JSON Schema dialects we compile. */
export type Dialect = "2020-12" | "2019-09" | "draft-07";

/**
 * Which JSON Schema validator runs: `"ajv"` (compiled, fastest; needs `new Function`),
 * `"interpreter"` (`@cfworker/json-schema`, no code generation), or `"auto"` (default): ajv
 * unless the runtime refuses code generation from strings.
 */
export type JsonSchemaValidator = "auto" | "ajv" | "interpreter";

let generates: boolean | undefined;

/**
 * True when the runtime lets code be generated from strings (ajv compiles validators with
 * `new Function`). Probed once, on the first compilation; never at start-up. Under a CSP the
 * probe is reported as a violation: choose `jsonSchemaValidator: "interpreter"` there.
 */
export function canGenerateCode(): boolean {
  if (generates === undefined) {
    try {
      generates = new Function("return true")() === true;
    } catch {
      generates = false;
    }
  }
  return generates;
}

type AjvInstance = Pick<Ajv, "compile" | "validateSchema" | "errors" | "errorsText" | "removeSchema">;
type AjvClass = new (options: Options) => AjvInstance;

const BASE: Options = { strict: false, allErrors: true, validateFormats: false, logger: false };
const classes = new Map<Dialect, Promise<AjvClass>>();

/** Imports the ajv class of `dialect` (once per process); only the dialects in use are loaded. */
function ajvClass(dialect: Dialect): Promise<AjvClass> {
  let loaded = classes.get(dialect);
  if (loaded === undefined) {
    loaded =
      dialect === "2020-12"
        ? import("ajv/dist/2020.js").then((m) => m.Ajv2020)
        : dialect === "2019-09"
          ? import("ajv/dist/2019.js").then((m) => m.Ajv2019)
          : import("ajv").then((m) => m.Ajv);
    classes.set(dialect, loaded);
  }
  return loaded;
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

interface Built {
  readonly fn: { (value: unknown): boolean | Promise<unknown>; errors?: readonly SchemaError[] | null };
  /** The ajv instance holding the compiled schema (none for the interpreter). */
  readonly owner: AjvInstance | undefined;
}

function interpret(copy: { [key: string]: unknown }, dialect: Dialect, where: string): Promise<Built> {
  return loadInterpreter().then(
    (Validator) => {
      try {
        return { fn: createInterpretedValidator(Validator, copy, dialect), owner: undefined };
      } catch (error) {
        throw new TypeError(`${where}: invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    (error: unknown) => {
      throw new TypeError(`${where}: could not load @cfworker/json-schema to validate without code generation: ${error instanceof Error ? error.message : String(error)}`);
    },
  );
}

/** Keywords that annotate and never refuse a value. */
const ANNOTATIONS = new Set(["title", "description", "$comment", "examples"]);

/**
 * True for an object schema that admits every object: `type: "object"`, no `properties` or an
 * empty one, annotations only. Checked without ajv, so a server whose tools take no arguments
 * never loads it (~9.5 MiB resident, issue 16).
 */
function admitsEveryObject(schema: { readonly [key: string]: unknown }): boolean {
  for (const key in schema) {
    const value = schema[key];
    if (key === "type" ? value !== "object" : key === "properties" ? typeof value !== "object" || value === null || Object.keys(value).length > 0 : !ANNOTATIONS.has(key)) return false;
  }
  return schema.type === "object";
}

/** The validator of a schema that admits every object, with ajv's error (verbose) for anything else. */
function objectCheck(schema: { readonly [key: string]: unknown }): Built {
  const fn = (value: unknown): boolean => {
    const ok = typeof value === "object" && value !== null && !Array.isArray(value);
    fn.errors = ok ? null : [{ keyword: "type", instancePath: "", schemaPath: "#/type", params: { type: "object" }, schema: "object", parentSchema: schema, data: value }];
    return ok;
  };
  fn.errors = null as readonly SchemaError[] | null;
  return { fn, owner: undefined };
}

/**
 * Creates the compiler a server uses for every tool; one ajv instance per dialect, created on
 * first use (or the interpreter, see `JsonSchemaValidator`).
 */
export function createSchemaCompiler(logger: Logger, engine: JsonSchemaValidator = "auto") {
  const options: Options = {
    ...BASE,
    verbose: true,
    validateSchema: false,
    logger: { log() {}, warn: (...args: unknown[]) => logger.warn(`ajv: ${args.map(String).join(" ")}`), error: (...args: unknown[]) => logger.error(`ajv: ${args.map(String).join(" ")}`) },
  };
  const shared = new Map<Dialect, AjvInstance>();

  function build(Class: AjvClass, copy: { [key: string]: unknown }, dialect: Dialect, where: string): Built {
    let ajv = shared.get(dialect);
    if (ajv === undefined) shared.set(dialect, (ajv = new Class(options)));
    try {
      return { fn: ajv.compile(copy), owner: ajv };
    } catch (error) {
      // A `$id` already used by another tool's schema: give this one its own instance.
      if (!(error instanceof Error && /already exists/.test(error.message))) {
        throw new TypeError(`${where}: invalid JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
      }
      ajv = new Class(options);
      return { fn: ajv.compile(copy), owner: ajv };
    }
  }

  /**
   * Reads the schema's dialect now (throws a `TypeError` naming `where` for an unsupported
   * one) and compiles it on `prepare()`.
   */
  function compile(schema: { readonly [key: string]: unknown }, where: string): CompiledSchema {
    const dialect = dialectOf(schema, where);
    const copy: { [key: string]: unknown } = { ...schema };
    delete copy.$schema;
    let built: Built | undefined;
    let preparing: Promise<void> | undefined;
    let released = false;
    const compiled = (): Promise<Built> =>
      admitsEveryObject(copy)
        ? Promise.resolve(objectCheck(copy))
        : engine === "interpreter" || (engine === "auto" && !canGenerateCode())
        ? interpret(copy, dialect, where)
        : ajvClass(dialect).then(
            (Class) => build(Class, copy, dialect, where),
            (error: unknown) => {
              throw new TypeError(`${where}: could not load ajv to compile the schema: ${error instanceof Error ? error.message : String(error)}`);
            },
          );
    const prepare = (): Promise<void> =>
      (preparing ??= compiled().then((done) => {
        built = done;
        if (released) built.owner?.removeSchema(copy);
      }).catch((error: unknown) => {
        logger.error(error instanceof Error ? error.message : String(error));
        throw error;
      }));
    return {
      get ready() {
        return built !== undefined;
      },
      prepare,
      validate(value) {
        if (built === undefined) throw new TypeError(`${where}: validate() before prepare() resolved`);
        return built.fn(value) as boolean;
      },
      get errors() {
        return built?.fn.errors ?? [];
      },
      release: () => {
        if (released) return;
        released = true;
        built?.owner?.removeSchema(copy);
      },
    };
  }

  return { compile };
}

/** The compiler type. */
export type SchemaCompiler = ReturnType<typeof createSchemaCompiler>;
