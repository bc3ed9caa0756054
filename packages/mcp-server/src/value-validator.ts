/**
 * Checking a value against a registered schema, whichever kind it is. A plain JSON Schema is
 * validated by the compiled (or interpreting) JSON Schema validator. A Standard Schema is
 * validated by the library's own `~standard.validate`, so its refinements and transforms
 * apply and the handler gets the library's output value; only when it refuses a value is the
 * advertised JSON Schema validated too, so that what JSON Schema can say is reported exactly
 * as for a plain JSON Schema tool (same reasons, same text, whatever the library). What only
 * the library knows (a refinement) is reported with the library's own message.
 *
 * String-sourced values (`"3"` for a number) are coerced, guided by the advertised JSON
 * Schema, when the first check fails (input only); the coerced value is kept only when valid.
 */
import { coerceArguments } from "./coercion";
import type { SchemaSource } from "./schema-source";
import type { StandardJsonSchemaProps, StandardSchemaIssue, StandardSchemaResult } from "./standard-schema";
import type { CompiledSchema, SchemaCompiler } from "./validation";
import type { ArgumentError } from "./validation-report";
import { toArgumentErrors } from "./validation-report";

/** The outcome of a check: the value to use (coerced, or transformed by the library), or what is wrong. */
export type Checked = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly errors: readonly ArgumentError[] };

/** Validates values against one registered schema. */
export interface ValueValidator {
  /** True when `check` needs nothing compiled first. */
  readonly ready: boolean;
  /** Compiles what `check` needs (once); rejects with the `TypeError` of an invalid schema. */
  prepare(): Promise<void>;
  /** Checks `value`; synchronous unless the library validates asynchronously or an error report needs the JSON Schema compiled. */
  check(value: unknown): Checked | Promise<Checked>;
  /** Releases compiled validators. */
  release(): void;
}

type Json = { readonly [key: string]: unknown };

function then<T, R>(value: T | PromiseLike<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return typeof (value as { then?: unknown } | null)?.then === "function" ? Promise.resolve(value).then(next) : next(value as T);
}

function pointerOf(path: StandardSchemaIssue["path"]): string[] {
  return (path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p));
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((v, key) => (typeof v === "object" && v !== null ? (v as Json)[key] : undefined), value);
}

/** Argument errors from a library's issues (its refinements): reason `invalid`, constraint `{ validate: vendor }`. */
function fromIssues(issues: readonly StandardSchemaIssue[], vendor: string, value: unknown, prefix: readonly string[]): ArgumentError[] {
  return issues.slice(0, 20).map((issue) => {
    const path = [...prefix, ...pointerOf(issue.path)];
    const received = valueAt(value, path);
    const text = issue.message.trim() === "" ? "Change the value to match the schema." : issue.message.trim();
    const base = { argument: path[0] ?? "", path: path.map((p) => `/${p.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""), reason: "invalid" as const, constraint: { validate: vendor } };
    return { ...base, ...(received === undefined ? {} : { received }), suggestion: /[.!?]$/.test(text) ? text : `${text}.` };
  });
}

function createJsonValidator(compiled: CompiledSchema, schema: Json, coerce: boolean): ValueValidator {
  return {
    get ready() {
      return compiled.ready;
    },
    prepare: () => compiled.prepare(),
    release: () => compiled.release(),
    check(raw) {
      if (compiled.validate(raw)) return { ok: true, value: raw };
      let errors = compiled.errors;
      const coerced = coerce ? coerceArguments(raw, schema) : raw;
      if (coerced !== raw) {
        if (compiled.validate(coerced)) return { ok: true, value: coerced };
        errors = compiled.errors;
      }
      // the errors of the coerced value are the precise ones; the values shown are the ones received
      return { ok: false, errors: toArgumentErrors(errors, coerced === raw ? undefined : { value: raw }) };
    },
  };
}

interface StandardOptions {
  readonly coerce: boolean;
  /** The value is `{ result }` around what the library validates (a non-object output schema). */
  readonly wrapped: boolean;
}

function createStandardValidator(standard: StandardJsonSchemaProps, compiled: CompiledSchema, schema: Json, options: StandardOptions): ValueValidator {
  const prefix = options.wrapped ? ["result"] : [];
  const subject = (raw: unknown): unknown => (options.wrapped ? (raw as { result?: unknown } | null)?.result : raw);
  const ok = (value: unknown): Checked => ({ ok: true, value: options.wrapped ? { result: value } : value });
  const report = (raw: unknown, issues: readonly StandardSchemaIssue[]): Checked | Promise<Checked> => {
    const errors = (): Checked => {
      if (!compiled.validate(raw)) return { ok: false, errors: toArgumentErrors(compiled.errors) };
      return { ok: false, errors: fromIssues(issues, standard.vendor, raw, prefix) };
    };
    if (compiled.ready) return errors();
    return compiled.prepare().then(errors, () => ({ ok: false, errors: fromIssues(issues, standard.vendor, raw, prefix) }));
  };
  const validate = (raw: unknown): StandardSchemaResult<unknown> | Promise<StandardSchemaResult<unknown>> => standard.validate(subject(raw));
  return {
    ready: true,
    prepare: () => Promise.resolve(),
    release: () => compiled.release(),
    check(raw) {
      return then(validate(raw), (first) => {
        if (!first.issues) return ok((first as { readonly value: unknown }).value);
        const coerced = options.coerce ? coerceArguments(raw, schema) : raw;
        if (coerced === raw) return report(raw, first.issues);
        return then(validate(coerced), (second) => (!second.issues ? ok((second as { readonly value: unknown }).value) : report(raw, first.issues)));
      });
    },
  };
}

/**
 * Creates the validator of a schema read by `readSchema`; `advertised` is the JSON Schema as
 * listed (for an output schema, possibly wrapped as `{ result }`). Reads the dialect now
 * (throws a `TypeError` naming `where` for an unsupported one); compiles on first need.
 */
export function createValueValidator(source: SchemaSource, advertised: Json, compiler: SchemaCompiler, where: string, options: StandardOptions): ValueValidator {
  const compiled = compiler.compile(advertised, where);
  return source.kind === "json" ? createJsonValidator(compiled, advertised, options.coerce) : createStandardValidator(source.standard, compiled, advertised, options);
}
