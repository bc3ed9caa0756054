// Type-level tests: `tsc -p tsconfig.json` checks them (the `@ts-expect-error` lines fail the
// build when the error they expect disappears); vitest runs the registrations once.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { createServer } from "./server";

describe("handler types inferred from each kind of schema", () => {
  const server = createServer({ name: "types", version: "1" });

  it("types args from zod, valibot, arktype and JSON Schema alike", () => {
    type Args = { city: string; days?: number | undefined };
    server.tool({ name: "zod", inputSchema: z.object({ city: z.string(), days: z.number().optional() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Args>();
      return args.city;
    });
    server.tool({ name: "valibot", inputSchema: toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number()) })) }, (args) => {
      expectTypeOf(args.city).toEqualTypeOf<string>();
      expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
      return args.city;
    });
    server.tool({ name: "arktype", inputSchema: type({ city: "string", "days?": "number" }) }, (args) => {
      expectTypeOf(args.city).toEqualTypeOf<string>();
      expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
      return args.city;
    });
    server.tool({ name: "json", inputSchema: { type: "object", properties: { city: { type: "string" }, days: { type: "number" } }, required: ["city"] } }, (args) => {
      expectTypeOf(args.city).toEqualTypeOf<string>();
      expectTypeOf(args.days).toEqualTypeOf<number | undefined>();
      return args.city;
    });
    expect(server.summary().tools).toEqual(["zod", "valibot", "arktype", "json"]);
  });

  it("gives the handler the library's output type (after transforms) and checks returns against the output schema's input type", () => {
    server.tool(
      { name: "transformed", inputSchema: z.object({ n: z.string().transform((s) => s.length) }), outputSchema: z.object({ len: z.number() }) },
      ({ n }) => {
        expectTypeOf(n).toEqualTypeOf<number>();
        return { len: n };
      },
    );
    // @ts-expect-error: the output schema wants { len: number }
    server.tool({ name: "wrong-return", inputSchema: z.object({}), outputSchema: z.object({ len: z.number() }) }, () => ({ len: "3" }));
    expect(server.summary().tools).toContain("transformed");
  });

  it("does not compile a handler that uses an argument at the wrong type", () => {
    const handlers = [
      // @ts-expect-error: city is a string, not a number
      server.tool({ name: "neg-zod", inputSchema: z.object({ city: z.string() }) }, ({ city }: { city: number }) => String(city)),
      // @ts-expect-error: city is a string, not a number
      server.tool({ name: "neg-valibot", inputSchema: toStandardJsonSchema(v.object({ city: v.string() })) }, ({ city }: { city: number }) => String(city)),
      // @ts-expect-error: city is a string, not a number
      server.tool({ name: "neg-arktype", inputSchema: type({ city: "string" }) }, ({ city }: { city: number }) => String(city)),
      // @ts-expect-error: city is a string, not a number
      server.tool({ name: "neg-json", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }, ({ city }: { city: number }) => String(city)),
    ];
    server.tool({ name: "neg-body", inputSchema: z.object({ city: z.string() }) }, ({ city }) => {
      // @ts-expect-error: a string is not assignable to a number
      const n: number = city;
      return String(n);
    });
    expect(handlers).toHaveLength(4);
  });
});
