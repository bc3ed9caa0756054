/**
 * JSON Schema validation with compiled validators cached by schema text. Schemas default to
 * 2020-12 (MCP 2025-11-25, server/tools "Output Schema"); a `$schema` naming draft-07 or
 * older uses ajv's draft-07 dialect. Formats are not asserted (annotations only).
 *
 * Where the runtime refuses code generation from strings (Cloudflare Workers, a strict CSP,
 * `--disallow-code-generation-from-strings`), ajv cannot compile: the interpreting
 * `@cfworker/json-schema` validates instead (probed once, on the first schema). The server
 * package does the same (its `jsonSchemaValidator` option); the probe is repeated here
 * because the two packages do not depend on each other.
 */
import { Validator as Interpreter } from "@cfworker/json-schema";
import { Ajv } from "ajv";
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

/** Which validator runs: ajv (compiled), the interpreter (no code generation), or `"auto"`: ajv unless code generation is refused. */
export type SchemaEngine = "auto" | "ajv" | "interpreter";

type Check = (value: unknown) => ValidationResult;

let generates: boolean | undefined;

/** True when `new Function` works here (ajv needs it). Probed once. */
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

const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const DATA = new Set(["enum", "const", "default", "examples"]);

/** A copy without `format` keywords (formats are annotations, as with ajv's `validateFormats: false`); names in property maps are kept. */
function withoutFormats(node: unknown, names = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutFormats(n));
  if (typeof node !== "object" || node === null) return node;
  const out: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(node)) {
    if (!names && key === "format" && typeof value === "string") continue;
    out[key] = !names && DATA.has(key) ? value : names ? withoutFormats(value) : withoutFormats(value, NAME_MAPS.has(key));
  }
  return out;
}

function ajvCheck(schema: { [key: string]: unknown }, ajv: Ajv | Ajv2020): Check {
  const validate = ajv.compile(schema);
  return (value) => {
    if (validate(value)) return { ok: true };
    const errors = validate.errors ?? [];
    const message = errors.map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
    return { ok: false, message, errors };
  };
}

function interpretedCheck(schema: { [key: string]: unknown }, legacy: boolean): Check {
  const interpreter = new Interpreter(withoutFormats(schema) as never, legacy ? "7" : "2020-12", true);
  return (value) => {
    let result: ReturnType<Interpreter["validate"]>;
    try {
      result = interpreter.validate(value);
    } catch (error) {
      throw new Error(`the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    if (result.valid) return { ok: true };
    const leaf = result.errors.at(-1);
    const where = leaf === undefined || leaf.instanceLocation === "#" ? "(root)" : decodeURIComponent(leaf.instanceLocation.slice(1));
    return { ok: false, message: `${where} ${leaf?.error ?? "is invalid"}`, errors: result.errors };
  };
}

function isDraft07OrOlder(schema: object): boolean {
  const uri = (schema as { $schema?: unknown }).$schema;
  return typeof uri === "string" && /draft-0[4-7]/.test(uri);
}

/** Compiles per ajv instance, in multiples of the cache size (a new instance costs a few ms). */
const GENERATION = 16;

/** One cached schema: its check, and how to drop what ajv keeps of it. */
interface Entry {
  readonly check: Check;
  release(): void;
}

/**
 * Creates a validator whose cache holds at most `maxEntries` compiled schemas (least recently
 * used go first), validating with `engine` (default `"auto"`). An evicted schema is removed from
 * ajv too, and each ajv instance compiles at most `GENERATION` × `maxEntries` schemas before a
 * fresh one takes over (what ajv keeps of nested `$id`s goes with the old instance once its
 * schemas are evicted), so a long-lived validator fed ever new schemas stays bounded.
 */
export function createSchemaValidator(maxEntries = 256, engine: SchemaEngine = "auto"): SchemaValidator {
  const instances: { modern?: { ajv: Ajv2020; compiled: number }; legacy?: { ajv: Ajv; compiled: number } } = {};
  const cache = new Map<string, Entry>();

  function instanceFor(old: boolean): Ajv | Ajv2020 {
    const slot = old ? "legacy" : "modern";
    let current = instances[slot];
    if (current === undefined || current.compiled >= GENERATION * maxEntries) {
      current = old ? { ajv: new Ajv(OPTIONS), compiled: 0 } : { ajv: new Ajv2020(OPTIONS), compiled: 0 };
      instances[slot] = current as never;
    }
    current.compiled += 1;
    return current.ajv;
  }

  function compile(schema: object, key: string): Check {
    // The root `$id` and `$schema` are dropped: ids of different servers must not collide in
    // one ajv instance, and the dialect was chosen here already.
    const { $id: _id, $schema: _schema, ...rest } = schema as { [key: string]: unknown };
    const old = isDraft07OrOlder(schema);
    let entry: Entry;
    try {
      if (engine === "interpreter" || (engine === "auto" && !canGenerateCode())) entry = { check: interpretedCheck(rest, old), release: () => undefined };
      else {
        const ajv = instanceFor(old);
        entry = { check: ajvCheck(rest, ajv), release: () => void ajv.removeSchema(rest) };
      }
    } catch (error) {
      throw new Error(`the schema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    cache.set(key, entry);
    if (cache.size > maxEntries) {
      const oldest = cache.keys().next().value as string;
      cache.get(oldest)?.release();
      cache.delete(oldest);
    }
    return entry.check;
  }

  return {
    validate(schema, value) {
      const key = JSON.stringify(schema);
      if (key.length > MAX_SCHEMA_CHARS) throw new Error(`the schema is ${key.length} characters long; the limit is ${MAX_SCHEMA_CHARS}`);
      const entry = cache.get(key);
      if (entry === undefined) return compile(schema, key)(value);
      cache.delete(key);
      cache.set(key, entry);
      return entry.check(value);
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
