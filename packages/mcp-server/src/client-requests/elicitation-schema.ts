/**
 * Checks a form-mode schema before sending it (flat, primitive fields only), and the content
 * a client returns against it: a server must not trust what a user typed more than what a
 * model sends.
 */
import type { PrimitiveSchemaDefinition } from "@proto/mcp-protocol";
import { isStandardSchema, readSchema } from "../schema-source";
import type { StandardJsonSchemaProps, StandardSchemaIssue } from "../standard-schema";
import type { ElicitationSchema, ElicitationSchemaLike } from "./elicitation-types";

type Field = PrimitiveSchemaDefinition & { readonly [key: string]: unknown };

const KINDS = new Set(["string", "number", "integer", "boolean", "array"]);

/** Throws a `TypeError` unless `schema` is a flat object schema of primitive fields. */
export function checkElicitationSchema(schema: unknown): asserts schema is ElicitationSchema {
  const s = schema as Partial<ElicitationSchema> | null;
  if (typeof s !== "object" || s === null || s.type !== "object" || typeof s.properties !== "object" || s.properties === null) {
    throw new TypeError('elicit(): requestedSchema must be { type: "object", properties: { ... } } with primitive fields');
  }
  for (const [name, field] of Object.entries(s.properties)) {
    const type = (field as { type?: unknown } | null)?.type;
    if (typeof type !== "string" || !KINDS.has(type)) {
      throw new TypeError(`elicit(): field "${name}" must be a string, number, integer, boolean or enum-array field (forms are flat)`);
    }
  }
  if (s.required !== undefined && (!Array.isArray(s.required) || !s.required.every((r) => typeof r === "string" && r in s.properties!))) {
    throw new TypeError("elicit(): required must list names of properties");
  }
}

function choices(field: Field): readonly string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum as string[];
  if (Array.isArray(field.oneOf)) return (field.oneOf as { const: string }[]).map((o) => o.const);
  return undefined;
}

function stringProblem(field: Field, value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  const allowed = choices(field);
  if (allowed !== undefined && !allowed.includes(value)) return `must be one of ${allowed.join(", ")}`;
  if (typeof field.minLength === "number" && value.length < field.minLength) return `must be at least ${field.minLength} characters`;
  if (typeof field.maxLength === "number" && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
  return undefined;
}

function numberProblem(field: Field, value: unknown): string | undefined {
  if (typeof value !== "number" || !Number.isFinite(value)) return "must be a number";
  if (field.type === "integer" && !Number.isInteger(value)) return "must be an integer";
  if (typeof field.minimum === "number" && value < field.minimum) return `must be at least ${field.minimum}`;
  if (typeof field.maximum === "number" && value > field.maximum) return `must be at most ${field.maximum}`;
  return undefined;
}

function arrayProblem(field: Field, value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return "must be an array of strings";
  const items = field.items as { enum?: string[]; anyOf?: { const: string }[] } | undefined;
  const allowed = items?.enum ?? items?.anyOf?.map((o) => o.const);
  const bad = allowed === undefined ? undefined : value.find((v) => !allowed.includes(v));
  if (bad !== undefined) return `holds ${JSON.stringify(bad)}, not one of ${allowed!.join(", ")}`;
  if (typeof field.minItems === "number" && value.length < field.minItems) return `must hold at least ${field.minItems} items`;
  if (typeof field.maxItems === "number" && value.length > field.maxItems) return `must hold at most ${field.maxItems} items`;
  return undefined;
}

function fieldProblem(field: Field, value: unknown): string | undefined {
  switch (field.type) {
    case "boolean":
      return typeof value === "boolean" ? undefined : "must be a boolean";
    case "number":
    case "integer":
      return numberProblem(field, value);
    case "array":
      return arrayProblem(field, value);
    default:
      return stringProblem(field, value);
  }
}

/** What is wrong with accepted `content` for `schema`, or undefined when it is valid. */
export function elicitedContentProblem(schema: ElicitationSchema, content: unknown): string | undefined {
  if (typeof content !== "object" || content === null || Array.isArray(content)) return "content must be an object";
  const values = content as Record<string, unknown>;
  for (const name of schema.required ?? []) if (!Object.hasOwn(values, name)) return `required field "${name}" is missing`;
  for (const [name, value] of Object.entries(values)) {
    const field = Object.hasOwn(schema.properties, name) ? (schema.properties[name] as Field) : undefined;
    if (field === undefined) return `field "${name}" was not asked for`;
    const problem = fieldProblem(field, value);
    if (problem !== undefined) return `field "${name}" ${problem}`;
  }
  return undefined;
}

/** A form as sent, and the library's validator when it was given as a Standard JSON Schema. */
export interface ElicitationForm {
  readonly schema: ElicitationSchema;
  readonly standard: StandardJsonSchemaProps | undefined;
}

const forms = new WeakMap<object, ElicitationForm>();

/**
 * Reads `requestedSchema`: a Standard JSON Schema is converted once (kept per schema object)
 * and its result checked like a plain one. Throws a `TypeError` unless the form is flat.
 */
export function readElicitationSchema(value: ElicitationSchemaLike): ElicitationForm {
  if (!isStandardSchema(value)) {
    checkElicitationSchema(value);
    return { schema: value, standard: undefined };
  }
  let form = forms.get(value);
  if (form === undefined) {
    const source = readSchema(value, "input", "elicit() requestedSchema");
    checkElicitationSchema(source.json);
    form = { schema: source.json, standard: source.kind === "standard" ? source.standard : undefined };
    forms.set(value, form);
  }
  return form;
}

/** What the library says is wrong with accepted `content`, or its output value. */
export async function validateElicited(form: ElicitationForm, content: unknown): Promise<{ readonly value: unknown } | { readonly problem: string }> {
  const problem = elicitedContentProblem(form.schema, content);
  if (problem !== undefined) return { problem };
  if (form.standard === undefined) return { value: content };
  const result = await form.standard.validate(content);
  if (!result.issues) return { value: (result as { readonly value: unknown }).value };
  const where = (path: StandardSchemaPath): string => (path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".");
  return { problem: result.issues.map((i) => (where(i.path) === "" ? i.message : `field "${where(i.path)}": ${i.message}`)).join("; ") };
}

type StandardSchemaPath = StandardSchemaIssue["path"];
