/**
 * Prompt arguments given as a Standard JSON Schema (zod, valibot, arktype): the object's
 * properties become the listed arguments (MCP 2025-11-25 server/prompts `PromptArgument`:
 * name, title, description, required), and `prompts/get` runs the library's own validation
 * after the wire checks (declared names, string values, required ones), so refinements and
 * transforms apply and the handler gets the library's output.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import { readSchema } from "../schema-source";
import type { StandardJsonSchema, StandardJsonSchemaProps, StandardSchemaIssue } from "../standard-schema";
import type { PromptArgumentDefinition } from "./types";

/** What a prompt's schema gives: its arguments as listed, and the library's validator. */
export interface SchemaArguments {
  readonly declared: readonly PromptArgumentDefinition[];
  readonly standard: StandardJsonSchemaProps;
}

type Json = { readonly [key: string]: unknown };

function isStringSchema(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const s = schema as Json;
  if (s.type === "string") return true;
  const values = Array.isArray(s.enum) ? s.enum : "const" in s ? [s.const] : undefined;
  return values !== undefined && values.every((v) => typeof v === "string");
}

/** Reads the arguments of a schema; throws a `TypeError` naming `where` unless it is an object of string fields. */
export function readPromptSchema(value: StandardJsonSchema, where: string): SchemaArguments {
  const source = readSchema(value, "input", `${where} arguments`);
  if (source.kind !== "standard") throw new TypeError(`${where}: arguments must be a list of { name, required? } or a Standard JSON Schema`);
  const json = source.json;
  const properties = (json.properties ?? {}) as { readonly [name: string]: unknown };
  if (json.type !== "object" || typeof properties !== "object") {
    throw new TypeError(`${where}: an arguments schema must describe an object (z.object(), v.object(), type({ ... })) of string fields`);
  }
  const required = new Set(Array.isArray(json.required) ? (json.required as string[]) : []);
  const declared = Object.entries(properties).map(([name, schema]): PromptArgumentDefinition => {
    if (!isStringSchema(schema)) throw new TypeError(`${where}: argument "${name}" must be a string field: prompt arguments are strings on the wire`);
    const { title, description } = schema as { title?: unknown; description?: unknown };
    return {
      name,
      ...(typeof title === "string" ? { title } : {}),
      ...(typeof description === "string" ? { description } : {}),
      ...(required.has(name) ? { required: true } : {}),
    };
  });
  return { declared, standard: source.standard };
}

function pathOf(issue: StandardSchemaIssue): string {
  return (issue.path ?? []).map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".");
}

/** Runs the library's validation; rejects with -32602 listing its issues (`data.issues`: path and message). */
export async function validatePromptArguments(standard: StandardJsonSchemaProps, args: Json, prompt: string): Promise<unknown> {
  const result = await standard.validate(args);
  if (!result.issues) return (result as { readonly value: unknown }).value;
  const issues = result.issues.slice(0, 20).map((i) => ({ path: pathOf(i), message: i.message }));
  const lines = issues.map((i) => (i.path === "" ? i.message : `argument "${i.path}": ${i.message}`));
  throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `prompts/get "${prompt}": ${lines.join("; ")}`, { issues });
}
