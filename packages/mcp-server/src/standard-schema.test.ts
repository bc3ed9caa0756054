import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { createServer } from "./server";
import type { Server } from "./server-types";
import type { InferInput, InferOutput, StandardJsonSchema } from "./standard-schema";
import { connectSdkClient } from "./test-helpers";

// The vendored interfaces and the package's accept each other both ways (they cannot drift).
type Both<I, O> = StandardSchemaV1<I, O> & StandardJSONSchemaV1<I, O>;
const _fromSpec = (s: Both<{ a: string }, number>): StandardJsonSchema<{ a: string }, number> => s;
const _toSpec = (s: StandardJsonSchema<{ a: string }, number>): Both<{ a: string }, number> => s;
const _inferIn: InferInput<StandardJsonSchema<{ a: string }, number>> = { a: "x" };
const _inferOut: InferOutput<StandardJsonSchema<{ a: string }, number>> = 1;
void [_fromSpec, _toSpec, _inferIn, _inferOut];

const JSON_FORECAST = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    city: { type: "string", minLength: 1, description: "City name" },
    days: { type: "integer", minimum: 1, maximum: 7 },
  },
  required: ["city"],
} as const;

const SCHEMAS = {
  json: JSON_FORECAST,
  zod: z.object({ city: z.string().min(1).describe("City name"), days: z.int().min(1).max(7).optional() }),
  valibot: toStandardJsonSchema(
    v.object({
      city: v.pipe(v.string(), v.minLength(1), v.description("City name")),
      days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7))),
    }),
  ),
  arktype: type({ city: type("string >= 1").describe("City name"), "days?": "1 <= number.integer <= 7" }),
};

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One server with the same tool written with each library; the handler echoes what it got. */
function forecastServer(): Server {
  const s = createServer({ name: "std", version: "1" });
  s.tool({ name: "plain", inputSchema: SCHEMAS.json }, ({ city, days }) => `${city}:${String(days)}`);
  s.tool({ name: "zod", inputSchema: SCHEMAS.zod }, ({ city, days }) => `${city}:${String(days)}`);
  s.tool({ name: "valibot", inputSchema: SCHEMAS.valibot }, ({ city, days }) => `${city}:${String(days)}`);
  s.tool({ name: "arktype", inputSchema: SCHEMAS.arktype }, ({ city, days }) => `${city}:${String(days)}`);
  return s;
}

const NAMES = ["plain", "zod", "valibot", "arktype"] as const;

describe("the same tool with JSON Schema, zod, valibot and arktype", () => {
  it("lists identical input schemas", async () => {
    server = forecastServer();
    const { client } = await connectSdkClient(server);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...NAMES]);
    for (const tool of tools) expect(tool.inputSchema).toEqual(JSON_FORECAST);
  });

  it.each([
    ["valid", { city: "Paris", days: 3 }],
    ["coerced", { city: "Paris", days: "3" }],
    ["too short and too big", { city: "", days: 9 }],
    ["missing, wrong type", { days: 2.5 }],
  ])("answers identically: %s", async (_label, args) => {
    server = forecastServer();
    const { client } = await connectSdkClient(server);
    const results = [];
    // The tool's name is the one expected difference (it is in the text and the details).
    for (const name of NAMES) results.push(JSON.parse(JSON.stringify(await client.callTool({ name, arguments: args as never })).replace(new RegExp(`\\b${name}\\b`, "g"), "T")) as Record<string, unknown>);
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
    if (_label === "valid" || _label === "coerced") expect(results[0]).toEqual({ content: [{ type: "text", text: "Paris:3" }] });
    else expect(results[0]?.isError).toBe(true);
  });

  it("refuses arguments that are not an object with -32602 before any library sees them", async () => {
    server = forecastServer();
    const { client } = await connectSdkClient(server);
    for (const name of NAMES) await expect(client.callTool({ name, arguments: [1] as never })).rejects.toMatchObject({ code: -32602 });
  });

  it("reports what JSON Schema says in the usual words, whichever library refused", async () => {
    server = forecastServer();
    const { client } = await connectSdkClient(server);
    const result = await client.callTool({ name: "valibot", arguments: { city: "", days: 9 } });
    const text = (result.content as { text: string }[])[0]?.text;
    expect(text).toContain('- "city" fails minLength 1 (received ""). Use at least 1 characters.');
    expect(text).toContain('- "days" fails maximum 7 (received 9). Pass a number <= 7.');
  });
});

describe("what only the library knows", () => {
  it("applies refinements (reported with the library's message) and transforms (the handler gets the output)", async () => {
    server = createServer({ name: "std", version: "1" });
    const seen: unknown[] = [];
    const input = z.object({
      city: z.string().refine((c) => c !== "Atlantis", "Atlantis is not a real city").transform((c) => c.toUpperCase()),
    });
    server.tool({ name: "t", inputSchema: input }, ({ city }) => {
      const upper: string = city;
      seen.push(upper);
      return upper;
    });
    const { client } = await connectSdkClient(server);
    expect(await client.callTool({ name: "t", arguments: { city: "paris" } })).toEqual({ content: [{ type: "text", text: "PARIS" }] });
    const refused = await client.callTool({ name: "t", arguments: { city: "Atlantis" } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toContain('- "city" is refused by the zod schema (received "Atlantis"). Atlantis is not a real city.');
    expect((refused._meta?.["dev.proto/tool-error"] as { errors: unknown[] }).errors).toEqual([
      { argument: "city", path: "/city", reason: "invalid", constraint: { validate: "zod" }, received: "Atlantis", suggestion: "Atlantis is not a real city." },
    ]);
    expect(seen).toEqual(["PARIS"]);
  });

  it("checks results against a Standard output schema, advertised as its output side (wrapped when not an object)", async () => {
    server = createServer({ name: "std", version: "1" });
    const output = type({ temp: "number", unit: "'C' | 'F'" });
    server.tool({ name: "ok", inputSchema: z.object({}), outputSchema: output }, () => ({ temp: 21, unit: "C" as const }));
    server.tool({ name: "bad", inputSchema: z.object({}), outputSchema: output }, () => ({ temp: "warm", unit: "C" }) as never);
    server.tool({ name: "list", inputSchema: { type: "object" }, outputSchema: z.array(z.number()) }, () => [1, 2]);
    // zod strips keys its object does not declare: the result is rebuilt from its output, text included.
    server.tool({ name: "strip", inputSchema: { type: "object" }, outputSchema: z.object({ temp: z.number() }) }, () => ({ temp: 3, secret: "x" }) as never);
    const { client } = await connectSdkClient(server);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === "list")?.outputSchema).toMatchObject({ type: "object", properties: { result: { type: "array" } }, required: ["result"] });
    expect(await client.callTool({ name: "ok", arguments: {} })).toMatchObject({ structuredContent: { temp: 21, unit: "C" } });
    expect(await client.callTool({ name: "list", arguments: {} })).toEqual({ content: [{ type: "text", text: "[1,2]" }], structuredContent: { result: [1, 2] } });
    expect(await client.callTool({ name: "strip", arguments: {} })).toEqual({ content: [{ type: "text", text: '{"temp":3}' }], structuredContent: { temp: 3 } });
    const bad = await client.callTool({ name: "bad", arguments: {} });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0]?.text).toMatch(/does not match its output schema:\n- \/temp: fails type "number"/);
  });
});

describe("registration refuses what cannot be advertised or validated, saying what to pass", () => {
  const s = createServer({ name: "std", version: "1" });
  const tool = (inputSchema: unknown, outputSchema?: unknown) => () =>
    s.tool({ name: "t", inputSchema: inputSchema as never, ...(outputSchema === undefined ? {} : { outputSchema: outputSchema as never }) }, () => "");

  it.each([
    ["a misspelt type", { type: "object", properties: { a: { type: "strnig" } } }, /inputSchema: invalid JSON Schema: \/properties\/a\/type must be one of "string"/],
    ["required that is not a list", { type: "object", required: "a" }, /\/required must be an array of property names/],
    ["a bad pattern", { type: "object", properties: { a: { type: "string", pattern: "(" } } }, /\/properties\/a\/pattern is not a valid regular expression/],
    ["a function inside", { type: "object", properties: { a: { type: "string", default: () => 1 } } }, /\/properties\/a\/default is a function, not JSON data/],
    ["a non-object", "string", /pass a JSON Schema object, or a Standard JSON Schema \(zod 4\.2\+/],
    ["a zod 3 schema", { _def: { typeName: "ZodObject" }, safeParse: () => ({}) }, /zod 3 .*upgrade to zod 4\.2 or later/],
    ["a zod 4.0/4.1 schema (Standard Schema without JSON Schema)", { "~standard": { version: 1, vendor: "zod", validate: () => ({ value: {} }) } }, /this zod schema is a Standard Schema but not a Standard JSON Schema, so it cannot be advertised: upgrade to zod 4\.2 or later/],
    ["a Standard Schema of another version", { "~standard": { version: 2, vendor: "x" } }, /unknown version/],
    ["a Standard Schema that cannot convert itself", v.object({ a: v.string() }), /valibot schema is a Standard Schema but not a Standard JSON Schema.*toStandardJsonSchema\(\) of @valibot\/to-json-schema/],
    ["a zod schema of a non-object", z.string(), /inputSchema must be an object schema \(z\.object\(\)/],
    ["a zod schema JSON Schema cannot describe", z.object({ at: z.date() }), /cannot be converted to JSON Schema \(Date cannot be represented/],
  ])("refuses %s", (_label, schema, message) => {
    expect(tool(schema)).toThrow(TypeError);
    expect(tool(schema)).toThrow(message);
  });

  it("refuses an output schema whose transforms JSON Schema cannot describe", () => {
    expect(tool(z.object({}), z.array(z.number().transform((n) => n * 2)))).toThrow(/outputSchema: this zod schema cannot be converted to JSON Schema \(Transforms cannot be represented/);
  });
});
