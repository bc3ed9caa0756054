import { describe, expect, it } from "vitest";
import type { Tool } from "@proto/mcp-protocol";
import { toAnthropicTools, toOpenAiTools, toProviderSchema } from "./llm-tools";

const weather: Tool = {
  name: "weather.get",
  description: "Current weather",
  inputSchema: { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const noArgs: Tool = { name: "now", title: "Current time", inputSchema: { type: "object" } };

describe("LLM tool conversion", () => {
  it("produces OpenAI function tools with valid names and a usable schema", () => {
    const { tools, names } = toOpenAiTools([weather, noArgs]);
    expect(tools).toEqual([
      {
        type: "function",
        function: { name: "weather_get", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
      },
      { type: "function", function: { name: "now", description: "Current time", parameters: { type: "object", properties: {} } } },
    ]);
    expect(names.toMcp("weather_get")).toEqual({ name: "weather.get" });
  });

  it("produces Anthropic tools", () => {
    const { tools } = toAnthropicTools([noArgs]);
    expect(tools).toEqual([{ name: "now", description: "Current time", input_schema: { type: "object", properties: {} } }]);
  });

  it("mixes the tools of several servers with server-prefixed names", () => {
    const { tools, names } = toAnthropicTools({ a: [weather], b: [weather] });
    expect(tools.map((t) => t.name)).toEqual(["a__weather_get", "b__weather_get"]);
    expect(names.toMcp("b__weather_get")).toEqual({ server: "b", name: "weather.get" });
  });

  it("omits the description when there is none and accepts a custom describer", () => {
    const bare: Tool = { name: "x", inputSchema: { type: "object" } };
    expect(toOpenAiTools([bare]).tools[0]?.function).not.toHaveProperty("description");
    const custom = toOpenAiTools([bare], { describe: (t, s) => `${s ?? "-"}:${t.name}` });
    expect(custom.tools[0]?.function.description).toBe("-:x");
  });

  it("lists a tool the server listed twice only once", () => {
    expect(toOpenAiTools([noArgs, noArgs]).tools).toHaveLength(1);
  });

  it("does not modify the MCP tool", () => {
    const copy = structuredClone(weather);
    toOpenAiTools([weather]);
    expect(weather).toEqual(copy);
    expect(toProviderSchema(undefined)).toEqual({ type: "object", properties: {} });
  });

  it("keeps every JSON Schema 2020-12 keyword of the input schema untouched, dropping only the root $schema", () => {
    const inputSchema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: { address: { $anchor: "addressDef", type: "object", properties: { city: { type: "string" } } } },
      properties: { address: { $ref: "#/$defs/address" }, contact: { type: "string", enum: ["phone", "email"] }, phone: { type: "string" }, email: { type: "string" } },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contact: { const: "phone" } }, required: ["contact"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
      unevaluatedProperties: false,
    } as const;
    const { $schema: _root, ...rest } = inputSchema;
    expect(toOpenAiTools([{ name: "rich", inputSchema }]).tools[0]?.function.parameters).toEqual(rest);
    expect(toAnthropicTools([{ name: "rich", inputSchema }]).tools[0]?.input_schema).toEqual(rest);
  });

  it("refuses input that is not tools", () => {
    expect(() => toOpenAiTools(null as unknown as Tool[])).toThrow(/array of MCP tools/);
    expect(() => toOpenAiTools([{} as Tool])).toThrow(/string `name`/);
    expect(() => toOpenAiTools({ a: "x" as unknown as Tool[] })).toThrow(/tools\["a"\]/);
  });
});
