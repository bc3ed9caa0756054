import { describe, expectTypeOf, it } from "vitest";
import type { FromSchema } from "./schema-types";
import { createServer } from "./server";

describe("FromSchema", () => {
  it("maps objects with required and optional properties", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "integer" }, c: { type: "boolean" } },
      required: ["a"],
      additionalProperties: false,
    } as const;
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{ a: string; b?: number; c?: boolean }>();
  });
  it("maps enums, consts, arrays, nulls, type unions and anyOf", () => {
    expectTypeOf<FromSchema<{ readonly enum: readonly ["x", "y", 3] }>>().toEqualTypeOf<"x" | "y" | 3>();
    expectTypeOf<FromSchema<{ readonly const: "k" }>>().toEqualTypeOf<"k">();
    expectTypeOf<FromSchema<{ readonly type: "array"; readonly items: { readonly type: "number" } }>>().toEqualTypeOf<number[]>();
    expectTypeOf<FromSchema<{ readonly type: readonly ["string", "null"] }>>().toEqualTypeOf<string | null>();
    expectTypeOf<FromSchema<{ readonly anyOf: readonly [{ readonly type: "string" }, { readonly type: "number" }] }>>().toEqualTypeOf<string | number>();
    expectTypeOf<FromSchema<{ readonly type: "object" }>>().toEqualTypeOf<{ [key: string]: unknown }>();
    expectTypeOf<FromSchema<{ readonly $ref: "#/x" }>>().toEqualTypeOf<unknown>();
  });
  it("keeps extra keys open unless additionalProperties is false", () => {
    type Open = FromSchema<{ readonly type: "object"; readonly properties: { readonly a: { readonly type: "string" } } }>;
    expectTypeOf<Open>().toMatchTypeOf<{ a?: string; [key: string]: unknown }>();
  });
  it("types a handler's arguments from an inline schema", () => {
    const server = createServer({ name: "t", version: "1" });
    server.tool(
      { name: "t", inputSchema: { type: "object", properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } } }, required: ["n"] } },
      (args) => {
        expectTypeOf(args.n).toEqualTypeOf<number>();
        expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
        return "";
      },
    );
  });
});
