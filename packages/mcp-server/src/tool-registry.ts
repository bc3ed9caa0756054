/**
 * The tool registry: descriptors as advertised, validators (compiled on first need, see
 * validation.ts), handlers (loaded lazily when asked), and the flags that decide whether a
 * tool is served over MCP.
 */
import type { Tool, ToolInputSchema } from "@proto/mcp-protocol";
import { readSchema } from "./schema-source";
import type { LazyToolDefinition, ToolDefinition, ToolHandler, ToolOutputSchema } from "./tool-types";
import type { SchemaCompiler } from "./validation";
import { createValueValidator } from "./value-validator";
import type { ValueValidator } from "./value-validator";

/** One registered tool. */
export interface ToolRecord {
  readonly name: string;
  readonly descriptor: Tool;
  readonly input: ValueValidator;
  readonly output: ValueValidator | undefined;
  /** The output schema is advertised wrapped as `{ result }` (it does not describe an object). */
  readonly outputWrapped: boolean;
  readonly scopes: readonly string[] | undefined;
  /** When a task call becomes a task (`ToolDefinition.taskStart`). */
  readonly taskStart: "call" | "handler";
  /** Served over MCP: offered on the `mcp` surface and not hidden. Fixed at registration. */
  readonly served: boolean;
  enabled: boolean;
  handler: ToolHandler | undefined;
  readonly load: (() => Promise<ToolHandler>) | undefined;
  loading: Promise<ToolHandler> | undefined;
}

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

function isObjectSchema(schema: ToolOutputSchema): boolean {
  return schema.type === "object" || (schema.type === undefined && typeof schema.properties === "object");
}

/** The output schema as advertised: object schemas as given, others wrapped as `{ result }`. */
function advertisedOutput(schema: ToolOutputSchema): ToolInputSchema {
  if (isObjectSchema(schema)) return schema as ToolInputSchema;
  const { $schema, ...rest } = schema;
  const wrapped = { type: "object" as const, properties: { result: rest }, required: ["result"] };
  return $schema === undefined ? wrapped : { $schema, ...wrapped };
}

function descriptorOf(def: ToolDefinition, input: ToolInputSchema, output: ToolInputSchema | undefined): Tool {
  const tool: { -readonly [K in keyof Tool]: Tool[K] } = { name: def.name, inputSchema: input };
  if (def.title !== undefined) tool.title = def.title;
  if (def.description !== undefined) tool.description = def.description;
  if (output !== undefined) tool.outputSchema = output;
  if (def.annotations !== undefined) tool.annotations = def.annotations;
  if (def.icons !== undefined) tool.icons = def.icons;
  if (def.execution !== undefined) tool.execution = def.execution;
  if (def._meta !== undefined) tool._meta = def._meta;
  return Object.freeze(tool);
}

function checkDefinition(def: ToolDefinition): void {
  if (typeof def !== "object" || def === null) throw new TypeError("tool(definition): pass an object with name and inputSchema");
  if (typeof def.name !== "string" || !NAME.test(def.name)) {
    throw new TypeError(`tool(): name ${JSON.stringify(def.name)} must be 1-128 characters of A-Z, a-z, 0-9, "_", "-" or "."`);
  }
  if (def.scopes !== undefined && (!Array.isArray(def.scopes) || !def.scopes.every((s) => typeof s === "string"))) {
    throw new TypeError(`tool("${def.name}"): scopes must be an array of strings`);
  }
}

/**
 * Builds a record: validates the definition and reads its schemas' dialects (throws a
 * `TypeError` on any problem found so). The schemas are compiled later, by `prepareRecord`.
 */
export function createToolRecord(
  def: ToolDefinition | LazyToolDefinition,
  handler: ToolHandler | undefined,
  compiler: SchemaCompiler,
): ToolRecord {
  checkDefinition(def);
  const load = "load" in def && typeof def.load === "function" ? def.load.bind(def) : undefined;
  if (handler === undefined && load === undefined) throw new TypeError(`tool("${def.name}"): pass a handler, or a definition with load()`);
  if (handler !== undefined && typeof handler !== "function") throw new TypeError(`tool("${def.name}"): the handler must be a function`);
  const where = `tool("${def.name}")`;
  const inputSource = readSchema(def.inputSchema, "input", `${where} inputSchema`);
  if (inputSource.json.type !== "object") {
    const what = inputSource.kind === "json" ? "a JSON Schema object with type \"object\"" : "an object schema (z.object(), v.object(), type({ ... }))";
    throw new TypeError(`${where}: inputSchema must be ${what}: tool arguments are an object`);
  }
  const input = inputSource.json as ToolInputSchema;
  const outputSource = def.outputSchema === undefined ? undefined : readSchema(def.outputSchema, "output", `${where} outputSchema`);
  const output = outputSource === undefined ? undefined : advertisedOutput(outputSource.json as ToolOutputSchema);
  const surfaces = def.surfaces ?? ["mcp"];
  if (def.taskStart !== undefined && def.taskStart !== "call" && def.taskStart !== "handler") {
    throw new TypeError(`${where}: taskStart must be "call" or "handler", got ${JSON.stringify(def.taskStart)}`);
  }
  return {
    name: def.name,
    descriptor: descriptorOf(def, input, output),
    input: createValueValidator(inputSource, input, compiler, `${where} inputSchema`, { coerce: true, wrapped: false }),
    output:
      outputSource === undefined || output === undefined
        ? undefined
        : createValueValidator(outputSource, output, compiler, `${where} outputSchema`, { coerce: false, wrapped: output !== outputSource.json }),
    outputWrapped: outputSource !== undefined && output !== outputSource.json,
    scopes: def.scopes === undefined || def.scopes.length === 0 ? undefined : [...def.scopes],
    taskStart: def.taskStart ?? "call",
    served: def.hidden !== true && surfaces.includes("mcp"),
    enabled: def.enabled !== false,
    handler,
    load: handler === undefined ? load : undefined,
    loading: undefined,
  };
}

/** True when the record's validators are compiled: a call can validate synchronously. */
export function isPrepared(record: ToolRecord): boolean {
  return record.input.ready && (record.output === undefined || record.output.ready);
}

/** Compiles the record's validators (once); rejects with the `TypeError` of an invalid schema. */
export function prepareRecord(record: ToolRecord): Promise<void> {
  return Promise.all([record.input.prepare(), record.output?.prepare()]).then(() => undefined);
}

/** Resolves a record's handler, loading it on first use; a failed load is retried on the next call. */
export function handlerOf(record: ToolRecord): Promise<ToolHandler> | ToolHandler {
  if (record.handler !== undefined) return record.handler;
  const load = record.load as () => Promise<ToolHandler>;
  record.loading ??= Promise.resolve()
    .then(load)
    .then((handler) => {
      if (typeof handler !== "function") throw new TypeError(`tool("${record.name}"): load() must resolve to the handler function`);
      record.handler = handler;
      return handler;
    })
    .catch((error: unknown) => {
      record.loading = undefined;
      throw error;
    });
  return record.loading;
}
