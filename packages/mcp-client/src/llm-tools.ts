/**
 * MCP tools as language-model tool definitions: OpenAI-style function tools and
 * Anthropic-style tools, with provider-valid names and the mapping back to the MCP tool
 * (see `tool-names.ts`). Pass one server's tools as an array, or several servers' as a
 * record keyed by server name: `toOpenAiTools({ github: ghTools, files: fsTools })`.
 */
import type { JsonSchemaObject, Tool } from "@proto/mcp-protocol";
import { createToolNameMap, type ToolNameMap, type ToolNameOptions } from "./tool-names";

/** An OpenAI Chat Completions / Responses function tool. */
export interface OpenAiTool {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description?: string;
    readonly parameters: JsonSchemaObject;
  };
}

/** An Anthropic Messages API tool. */
export interface AnthropicTool {
  readonly name: string;
  readonly description?: string;
  readonly input_schema: JsonSchemaObject;
}

/** One server's tools, or several servers' keyed by a server name of your choice. */
export type ToolSet = readonly Tool[] | { readonly [server: string]: readonly Tool[] };

/** Options of the converters. */
export interface LlmToolOptions extends ToolNameOptions {
  /** The description to give the model. Default: `description`, else `title`, else `annotations.title`. */
  readonly describe?: (tool: Tool, server: string | undefined) => string | undefined;
}

/** Converted tools and the name mapping to route the model's tool calls back. */
export interface LlmTools<T> {
  readonly tools: T[];
  /** `names.toMcp(call.name)` gives `{ server, name }` of the MCP tool to call. */
  readonly names: ToolNameMap;
}

function flatten(set: ToolSet): { server: string | undefined; tool: Tool }[] {
  if (Array.isArray(set)) return (set as readonly Tool[]).map((tool) => ({ server: undefined, tool }));
  if (typeof set !== "object" || set === null) throw new TypeError("tools must be an array of MCP tools or a record { [server]: Tool[] }");
  return Object.entries(set as { readonly [server: string]: readonly Tool[] }).flatMap(([server, tools]) => {
    if (!Array.isArray(tools)) throw new TypeError(`tools["${server}"] must be an array of MCP tools`);
    return tools.map((tool) => ({ server, tool }));
  });
}

/** The input schema as providers accept it: an object schema with `properties`, without a root `$schema`. */
export function toProviderSchema(schema: JsonSchemaObject | undefined): JsonSchemaObject {
  const { $schema: _ignored, ...rest } = schema ?? {};
  return { ...rest, type: "object", properties: rest.properties ?? {} };
}

function convert<T>(set: ToolSet, options: LlmToolOptions, make: (name: string, description: string | undefined, schema: JsonSchemaObject) => T): LlmTools<T> {
  const items = flatten(set);
  for (const { tool } of items) {
    if (typeof tool?.name !== "string") throw new TypeError("every tool must have a string `name` (pass tools as tools/list returns them)");
  }
  const names = createToolNameMap(items.map(({ server, tool }) => (server === undefined ? { name: tool.name } : { server, name: tool.name })), options);
  const describe = options.describe ?? ((tool: Tool) => tool.description ?? tool.title ?? tool.annotations?.title);
  const seen = new Set<string>();
  const tools: T[] = [];
  for (const { server, tool } of items) {
    const name = names.toProvider(tool.name, server) as string;
    // A server listing one name twice would make the provider refuse the whole request.
    if (seen.has(name)) continue;
    seen.add(name);
    tools.push(make(name, describe(tool, server), toProviderSchema(tool.inputSchema)));
  }
  return { tools, names };
}

/** Converts MCP tools to OpenAI function tools (`{ type: "function", function: { name, description, parameters } }`). */
export function toOpenAiTools(tools: ToolSet, options: LlmToolOptions = {}): LlmTools<OpenAiTool> {
  return convert(tools, options, (name, description, parameters) => ({
    type: "function",
    function: description === undefined ? { name, parameters } : { name, description, parameters },
  }));
}

/** Converts MCP tools to Anthropic tools (`{ name, description, input_schema }`). */
export function toAnthropicTools(tools: ToolSet, options: LlmToolOptions = {}): LlmTools<AnthropicTool> {
  return convert(tools, options, (name, description, input_schema) =>
    description === undefined ? { name, input_schema } : { name, description, input_schema },
  );
}
