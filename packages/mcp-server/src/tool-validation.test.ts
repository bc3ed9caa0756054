import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createServer } from "./server";
import type { Server } from "./server-types";
import { connectSdkClient } from "./test-helpers";
import { TOOL_ERROR_META_KEY } from "./tool-call";
import type { ToolArgumentsErrorDetails } from "./validation-report";

let server: Server;
let client: Client;
const seen: unknown[] = [];

const schema = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 2, maxLength: 5, pattern: "^[a-z]+$" },
    color: { enum: ["red", "green"] },
    kind: { const: "fixed" },
    count: { type: "integer", minimum: 1, maximum: 10 },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: "number", multipleOf: 5 },
    tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 3, uniqueItems: true },
    flag: { type: "boolean" },
    opts: { type: "object", properties: { depth: { type: "integer" } }, additionalProperties: false },
    either: { type: ["string", "number"] },
    nested: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } },
  },
  required: ["name"],
  additionalProperties: false,
} as const;

beforeAll(async () => {
  server = createServer({ name: "v", version: "1" });
  server.tool({ name: "check", inputSchema: schema }, (args) => {
    seen.push(args);
    return "ok";
  });
  ({ client } = await connectSdkClient(server));
});
afterAll(async () => {
  await client.close();
  await server.close();
});

async function refused(args: Record<string, unknown>): Promise<ToolArgumentsErrorDetails & { text: string }> {
  const before = seen.length;
  const result = await client.callTool({ name: "check", arguments: args });
  expect(result.isError).toBe(true);
  expect(seen.length).toBe(before);
  const details = (result._meta as Record<string, ToolArgumentsErrorDetails>)[TOOL_ERROR_META_KEY] as ToolArgumentsErrorDetails;
  expect(details.code).toBe("invalid_arguments");
  expect(details.schema).toEqual(schema);
  return { ...details, text: (result.content as { text: string }[])[0]?.text ?? "" };
}

describe("a validation failure for each constraint kind", () => {
  const cases: [string, Record<string, unknown>, string, string][] = [
    ["required", {}, "required", "name"],
    ["unexpected", { name: "ab", extra: 1 }, "unexpected", "extra"],
    ["unexpected (nested)", { name: "ab", opts: { depth: 1, wide: true } }, "unexpected", "opts"],
    ["type", { name: 12 }, "type", "name"],
    ["enum", { name: "ab", color: "blue" }, "enum", "color"],
    ["const", { name: "ab", kind: "other" }, "const", "kind"],
    ["minLength", { name: "a" }, "minLength", "name"],
    ["maxLength", { name: "abcdef" }, "maxLength", "name"],
    ["pattern", { name: "AB" }, "pattern", "name"],
    ["minimum", { name: "ab", count: 0 }, "minimum", "count"],
    ["maximum", { name: "ab", count: 11 }, "maximum", "count"],
    ["exclusiveMinimum", { name: "ab", ratio: 0 }, "exclusiveMinimum", "ratio"],
    ["exclusiveMaximum", { name: "ab", ratio: 1 }, "exclusiveMaximum", "ratio"],
    ["multipleOf", { name: "ab", step: 7 }, "multipleOf", "step"],
    ["minItems", { name: "ab", tags: [] }, "minItems", "tags"],
    ["maxItems", { name: "ab", tags: ["a", "b", "c", "d"] }, "maxItems", "tags"],
    ["uniqueItems", { name: "ab", tags: ["a", "a"] }, "uniqueItems", "tags"],
    ["integer type", { name: "ab", count: 1.5 }, "type", "count"],
  ];
  for (const [label, args, reason, argument] of cases) {
    it(label, async () => {
      const details = await refused(args);
      const error = details.errors.find((e) => e.reason === reason);
      expect(error, JSON.stringify(details.errors)).toBeDefined();
      expect(error?.argument).toBe(argument);
      expect(error?.suggestion.length).toBeGreaterThan(5);
      expect(Object.keys(error?.constraint ?? {}).length).toBe(1);
      expect(details.text).toContain(`Invalid arguments for tool "check"`);
      expect(details.text).toContain(error?.suggestion);
    });
  }

  it("names what is accepted when an argument is unexpected", async () => {
    const details = await refused({ name: "ab", colour: "red" });
    expect(details.errors[0]?.suggestion).toMatch(/Remove "colour"; accepted: name, color/);
  });
});

describe("coercion of string-sourced values", () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["integer", { name: "ab", count: "7" }, { name: "ab", count: 7 }],
    ["number", { name: "ab", ratio: "0.25" }, { name: "ab", ratio: 0.25 }],
    ["number with exponent", { name: "ab", step: "1e1" }, { name: "ab", step: 10 }],
    ["boolean", { name: "ab", flag: "false" }, { name: "ab", flag: false }],
    ["JSON array", { name: "ab", tags: '["x","y"]' }, { name: "ab", tags: ["x", "y"] }],
    ["JSON object", { name: "ab", opts: '{"depth":"3"}' }, { name: "ab", opts: { depth: 3 } }],
    ["nested in an array", { name: "ab", nested: '[{"n":"1"},{"n":2}]' }, { name: "ab", nested: [{ n: 1 }, { n: 2 }] }],
  ];
  for (const [label, args, expected] of cases) {
    it(label, async () => {
      const result = await client.callTool({ name: "check", arguments: args });
      expect(result.isError).toBeUndefined();
      expect(seen.at(-1)).toEqual(expected);
    });
  }

  it("keeps a valid value as sent (no coercion where a string is accepted)", async () => {
    await client.callTool({ name: "check", arguments: { name: "ab", either: "5" } });
    expect(seen.at(-1)).toEqual({ name: "ab", either: "5" });
  });

  it("does not coerce when the coerced value is still invalid", async () => {
    const details = await refused({ name: "ab", count: "70" });
    expect(details.errors).toEqual([expect.objectContaining({ argument: "count", reason: "maximum" })]);
    const typed = await refused({ name: "ab", count: "seven" });
    expect(typed.errors).toEqual([expect.objectContaining({ argument: "count", reason: "type", received: "seven" })]);
  });
});
