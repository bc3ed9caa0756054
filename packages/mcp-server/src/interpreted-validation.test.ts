import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectSdkClient } from "./test-helpers";

const SCHEMA = {
  type: "object",
  $defs: { tag: { type: "string", pattern: "^[a-z]+$" } },
  properties: {
    title: { type: "string", minLength: 2, maxLength: 5 },
    year: { type: "integer", minimum: 1450, exclusiveMaximum: 2100 },
    kind: { enum: ["book", "paper"] },
    fixed: { const: 1 },
    step: { type: "number", multipleOf: 0.5 },
    tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true, maxItems: 3 },
    either: { anyOf: [{ type: "string" }, { type: "integer" }] },
    when: { type: "string", format: "date-time" },
    "a/b~c": { type: "boolean" },
    nested: { type: "object", properties: { deep: { type: "array", minItems: 1 } }, required: ["deep"], additionalProperties: false },
  },
  required: ["title"],
  additionalProperties: false,
} as const;

const CASES: readonly unknown[] = [
  { title: "ok" },
  { title: "ok", when: "not a date" },
  {},
  { title: "x", year: 1200 },
  { title: "toolong", year: 2100, kind: "film", fixed: 2, step: 0.3 },
  { title: "ok", tags: ["a", "B", "a", "c"] },
  { title: "ok", either: 1.5, "a/b~c": "yes" },
  { title: "ok", nested: { extra: 1 } },
  { title: "ok", nested: { deep: [] }, unknown: true },
  { title: 3, year: "1500" },
];

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function callAll(engine: "ajv" | "interpreter", name: string, inputSchema: never, args: readonly unknown[]): Promise<unknown[]> {
  const server = createServer({ name: engine, version: "1" }, { jsonSchemaValidator: engine });
  servers.push(server);
  server.tool({ name, inputSchema }, (a) => JSON.stringify(a));
  const { client } = await connectSdkClient(server);
  const results: unknown[] = [];
  for (const a of args) results.push(await client.callTool({ name, arguments: a as never }));
  return results;
}

describe("the interpreting validator (no code generation)", () => {
  it("answers every call exactly as ajv does: same acceptance, coercion, reasons, paths, text", async () => {
    const ajv = await callAll("ajv", "t", SCHEMA as never, CASES);
    const interpreter = await callAll("interpreter", "t", SCHEMA as never, CASES);
    expect(interpreter).toEqual(ajv);
    expect(ajv.filter((r) => (r as { isError?: boolean }).isError === true)).toHaveLength(CASES.length - 2);
  });

  it("serves draft-07 schemas and Standard Schemas' error reports too", async () => {
    const draft7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { n: { type: "integer", maximum: 3 } }, required: ["n"] };
    const args = [{ n: 2 }, { n: 9 }, {}];
    expect(await callAll("interpreter", "d", draft7 as never, args)).toEqual(await callAll("ajv", "d", draft7 as never, args));
    const zod = z.object({ n: z.int().max(3) });
    expect(await callAll("interpreter", "z", zod as never, args)).toEqual(await callAll("ajv", "z", zod as never, args));
  });

  it("refuses an unknown validator option", () => {
    expect(() => createServer({ name: "x", version: "1" }, { jsonSchemaValidator: "eval" as never })).toThrow(/jsonSchemaValidator must be "auto", "ajv" or "interpreter"/);
  });
});
