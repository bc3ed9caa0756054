/**
 * What a schema argument (`inputSchema`, `outputSchema`, prompt `arguments`, `requestedSchema`)
 * is: a plain JSON Schema, or a Standard JSON Schema (zod 4.2+, arktype, valibot through
 * `toStandardJsonSchema`) converted once, here, to the JSON Schema 2020-12 that is advertised.
 * Anything else is a `TypeError` saying what to pass: a Standard Schema that cannot convert
 * itself (zod 4.0/4.1, a bare valibot schema), a zod 3 schema, a class instance or a function.
 */
import { checkJsonSchema } from "./schema-check";
import type { StandardJsonSchema, StandardJsonSchemaProps } from "./standard-schema";
import { dialectOf } from "./validation";

/** A schema as registered: the JSON Schema to advertise, and the library's own validator when there is one. */
export type SchemaSource =
  | { readonly kind: "json"; readonly json: { readonly [key: string]: unknown } }
  | { readonly kind: "standard"; readonly json: { readonly [key: string]: unknown }; readonly standard: StandardJsonSchemaProps };

const WHAT = "pass a JSON Schema object, or a Standard JSON Schema (zod 4.2+, arktype 2.1.28+, valibot through toStandardJsonSchema() of @valibot/to-json-schema)";

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True when `value` carries a `~standard` property (a Standard Schema of some version). */
export function isStandardSchema(value: unknown): value is StandardJsonSchema {
  return (typeof value === "object" || typeof value === "function") && value !== null && "~standard" in value;
}

function standardProps(value: StandardJsonSchema, where: string): StandardJsonSchemaProps {
  const props = value["~standard"] as Partial<StandardJsonSchemaProps> | null;
  const vendor = typeof props?.vendor === "string" ? props.vendor : "unknown";
  if (typeof props !== "object" || props === null || props.version !== 1) {
    throw new TypeError(`${where}: a Standard Schema of an unknown version (only version 1 is known); ${WHAT}`);
  }
  if (typeof props.validate !== "function") throw new TypeError(`${where}: this ${vendor} schema has no ~standard.validate; ${WHAT}`);
  const converter = props.jsonSchema as Partial<StandardJsonSchemaProps["jsonSchema"]> | undefined;
  if (typeof converter?.input !== "function" || typeof converter.output !== "function") {
    const hint = vendor === "valibot" ? "wrap it with toStandardJsonSchema() of @valibot/to-json-schema" : vendor === "zod" ? "upgrade to zod 4.2 or later" : "use a version of the library that implements Standard JSON Schema";
    throw new TypeError(`${where}: this ${vendor} schema is a Standard Schema but not a Standard JSON Schema, so it cannot be advertised: ${hint}, or pass a plain JSON Schema`);
  }
  return props as StandardJsonSchemaProps;
}

function convert(props: StandardJsonSchemaProps, io: "input" | "output", where: string): { [key: string]: unknown } {
  let json: unknown;
  try {
    json = props.jsonSchema[io]({ target: "draft-2020-12" });
  } catch (error) {
    throw new TypeError(`${where}: this ${props.vendor} schema cannot be converted to JSON Schema (${message(error)}); use only types JSON Schema can describe, or pass a plain JSON Schema`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw new TypeError(`${where}: the ${props.vendor} schema converted to ${JSON.stringify(json)}, not a JSON Schema object`);
  return json as { [key: string]: unknown };
}

function refuseOther(value: unknown, where: string): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new TypeError(`${where}: ${WHAT}; got ${value === null ? "null" : Array.isArray(value) ? "an array" : typeof value}`);
  const v = value as { _def?: unknown; safeParse?: unknown; parse?: unknown };
  if (v._def !== undefined || typeof v.safeParse === "function") {
    throw new TypeError(`${where}: this looks like a zod 3 (or zod < 3.24) schema, which implements neither Standard Schema nor Standard JSON Schema: upgrade to zod 4.2 or later, or pass a plain JSON Schema`);
  }
}

/**
 * Reads a schema argument: a Standard JSON Schema is converted (its `io` side: `"input"` for
 * what a caller sends, `"output"` for what a tool returns) and the result checked; a plain
 * JSON Schema is checked (`checkJsonSchema`) and kept as given. Throws a `TypeError` naming
 * `where` for anything else, or for a schema whose keywords the meta-schema refuses.
 */
export function readSchema(value: unknown, io: "input" | "output", where: string): SchemaSource {
  if (isStandardSchema(value)) {
    const standard = standardProps(value, where);
    const json = convert(standard, io, where);
    checkJsonSchema(json, dialectOf(json, where), `${where} (converted from ${standard.vendor})`);
    return { kind: "standard", json, standard };
  }
  refuseOther(value, where);
  const json = value as { [key: string]: unknown };
  checkJsonSchema(json, dialectOf(json, where), where);
  return { kind: "json", json };
}
