import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectSdkClient } from "./test-helpers";
import { TOOL_ERROR_META_KEY } from "./tool-call";
import type { ToolArgumentsErrorDetails } from "./validation-report";

type Case = { readonly schema: object; readonly args: Record<string, unknown>; readonly lines: readonly string[] };

const CASES: { readonly [name: string]: Case } = {
  itemsFalse: {
    schema: { type: "object", properties: { pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false } } },
    args: { pair: ["a", 1, true, 4] },
    lines: ['- "pair" has more items than the schema accepts (received ["a",1,true,4]). Pass at most 2 items: remove the items from index 2 on.'],
  },
  unevaluatedItems: {
    schema: { type: "object", properties: { list: { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false } } },
    args: { list: ["a", 2] },
    lines: ['- "list" has more items than the schema accepts (received ["a",2]). Pass at most 1 item: remove the items from index 1 on.'],
  },
  unevaluatedProperties: {
    schema: { type: "object", properties: { a: { type: "string" } }, allOf: [{ properties: { b: { type: "number" } } }], unevaluatedProperties: false },
    args: { a: "x", b: 1, c: 2, d: 3 },
    lines: ['- "c" is not an accepted argument. Remove "c"; accepted: a, b.', '- "d" is not an accepted argument. Remove "d"; accepted: a, b.'],
  },
  dependentRequired: {
    schema: { type: "object", properties: { card: { type: "string" }, cvv: { type: "string", description: "3 digits" } }, dependentRequired: { card: ["cvv"] } },
    args: { card: "4111" },
    lines: ['- "cvv" is required when "card" is given. Add "cvv" (string): 3 digits, which "card" requires, or remove "card".'],
  },
  failedElse: {
    schema: {
      type: "object",
      properties: { kind: { type: "string" }, size: { type: "number" } },
      if: { properties: { kind: { const: "big" } }, required: ["kind"] },
      then: { properties: { size: { minimum: 10 } } },
      else: { properties: { size: { maximum: 5 } } },
    },
    args: { kind: "small", size: 7 },
    lines: ['- "size" fails maximum 5 (received 7). Pass a number <= 5.'],
  },
  failedThen: {
    schema: { type: "object", properties: { kind: { type: "string" }, size: { type: "number" } }, if: { properties: { kind: { const: "big" } }, required: ["kind"] }, then: { required: ["size"] } },
    args: { kind: "big" },
    lines: ['- "size" is required. Add "size".'],
  },
  elseFalse: {
    schema: { type: "object", if: { required: ["kind"] }, then: true, else: false },
    args: { size: 7 },
    lines: [
      `- arguments does not match the schema's "else" branch (received {"size":7}). These arguments do not meet the schema's if condition, and its "else" branch refuses them: change them to match that branch (see the tool's input schema).`,
    ],
  },
  coerced: {
    schema: { type: "object", properties: { year: { type: "integer", minimum: 1450 }, tags: { type: "array", items: { type: "string" }, maxItems: 1 } } },
    args: { year: "1200", tags: '["a","b"]' },
    lines: ['- "year" fails minimum 1450 (received "1200"). Pass a number >= 1450.', '- "tags" fails maxItems 1 (received "[\\"a\\",\\"b\\"]"). Pass at most 1 items.'],
  },
};

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function refusals(engine: "ajv" | "interpreter"): Promise<Map<string, { text: string; details: ToolArgumentsErrorDetails }>> {
  const server = createServer({ name: engine, version: "1" }, { jsonSchemaValidator: engine });
  servers.push(server);
  for (const [name, c] of Object.entries(CASES)) server.tool({ name, inputSchema: c.schema as never }, () => "ran");
  const { client } = await connectSdkClient(server);
  const out = new Map<string, { text: string; details: ToolArgumentsErrorDetails }>();
  for (const [name, c] of Object.entries(CASES)) {
    const result = await client.callTool({ name, arguments: c.args });
    expect(result.isError, `${engine} ${name}`).toBe(true);
    out.set(name, { text: (result.content as { text: string }[])[0]?.text ?? "", details: (result._meta as Record<string, ToolArgumentsErrorDetails>)[TOOL_ERROR_META_KEY]! });
  }
  return out;
}

describe("repair hints for JSON Schema 2020-12 keywords", () => {
  it.each(["ajv", "interpreter"] as const)("%s: names the rejected key, item or missing dependency, and what to do", async (engine) => {
    const results = await refusals(engine);
    for (const [name, c] of Object.entries(CASES)) {
      const text = results.get(name)?.text ?? "";
      expect(text.split("\n").slice(1, -1), `${engine} ${name}`).toEqual(c.lines);
      expect(text).not.toContain("Change the value to match the schema");
    }
  });

  it("never cites the if schema for a failed else, and cites the failed branch instead", async () => {
    const details = (await refusals("ajv")).get("elseFalse")?.details;
    expect(details?.errors).toEqual([expect.objectContaining({ path: "", reason: "invalid", constraint: { else: false } })]);
    expect(JSON.stringify(details?.errors)).not.toContain('"if"');
  });

  it("both validators give the same details, paths and reasons included", async () => {
    const [ajv, interpreter] = await Promise.all([refusals("ajv"), refusals("interpreter")]);
    for (const name of Object.keys(CASES)) expect(interpreter.get(name), name).toEqual(ajv.get(name));
    expect(ajv.get("dependentRequired")?.details.errors).toEqual([
      { argument: "cvv", path: "/cvv", reason: "required", constraint: { dependentRequired: { card: ["cvv"] } }, suggestion: expect.stringMatching(/^Add "cvv"/) },
    ]);
    expect(ajv.get("itemsFalse")?.details.errors).toEqual([expect.objectContaining({ argument: "pair", path: "/pair", reason: "unexpected", constraint: { items: false } })]);
  });
});
