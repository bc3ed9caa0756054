import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonRpcSuccess } from "@proto/jsonrpc";
import type { CallToolResult, ToolInputSchema } from "@proto/mcp-protocol";
import { createServer } from "./server";
import { connectRaw, initializeRaw } from "./test-helpers";

/** One property's schema, and a generator of values valid against it. */
const property = fc.oneof(
  fc.record({ min: fc.integer({ min: -5, max: 5 }), span: fc.integer({ min: 0, max: 10 }) }).map(({ min, span }) => ({
    schema: { type: "integer", minimum: min, maximum: min + span },
    valid: fc.integer({ min, max: min + span }),
  })),
  fc.record({ min: fc.double({ min: -10, max: 10, noNaN: true }) }).map(({ min }) => ({
    schema: { type: "number", exclusiveMinimum: min },
    valid: fc.double({ min: min + 1, max: 1e6, noNaN: true }),
  })),
  fc.record({ max: fc.integer({ min: 1, max: 6 }) }).map(({ max }) => ({
    schema: { type: "string", minLength: 1, maxLength: max },
    valid: fc.string({ minLength: 1, maxLength: max }).filter((s) => [...s].length === s.length),
  })),
  fc.constant({ schema: { type: "boolean" }, valid: fc.boolean() }),
  fc.constant({ schema: { type: "array", items: { type: "integer" }, maxItems: 3, uniqueItems: true }, valid: fc.uniqueArray(fc.integer(), { maxLength: 3 }) }),
  fc.constant({ schema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] }, valid: fc.record({ n: fc.double({ noNaN: true, noDefaultInfinity: true }) }) }),
  fc.constant({ schema: { enum: ["red", "green", 3] }, valid: fc.constantFrom("red", "green", 3) }),
);

/** A tool schema: 1-4 properties, some required, maybe closed. */
const toolCase = fc
  .record({
    props: fc.array(property, { minLength: 1, maxLength: 4 }),
    required: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    closed: fc.boolean(),
  })
  .chain(({ props, required, closed }) => {
    const names = props.map((_, i) => `p${i}`);
    const schema: ToolInputSchema = {
      type: "object",
      properties: Object.fromEntries(props.map((p, i) => [names[i], p.schema])),
      required: names.filter((_, i) => required[i]),
      ...(closed ? { additionalProperties: false } : {}),
    };
    const validArgs = fc.record(Object.fromEntries(props.map((p, i) => [names[i] as string, p.valid as fc.Arbitrary<unknown>])), { requiredKeys: [] });
    const noise = fc.dictionary(fc.constantFrom(...names, "extra"), fc.oneof(fc.jsonValue(), fc.constantFrom("1", "true", "[1]", '{"n":1}', "x")), { maxKeys: 4 });
    // Valid arguments, the same with some values sent as strings, and arbitrary noise.
    // Only values whose schema names a type are coerced back (an `enum` alone names none).
    const typed = new Set(names.filter((_, i) => "type" in (props[i]?.schema ?? {})));
    const stringify = validArgs.chain((args) =>
      fc.array(fc.boolean(), { minLength: names.length, maxLength: names.length }).map((flags) => ({
        original: args,
        sent: Object.fromEntries(
          Object.entries(args).map(([k, v], i) => [k, flags[i] && typed.has(k) && typeof v !== "string" ? JSON.stringify(v) : v]),
        ),
      })),
    );
    return fc.record({ schema: fc.constant(schema), args: fc.oneof(stringify, noise.map((n) => ({ original: undefined, sent: n }))) });
  });

/** What a value looks like after crossing the wire as JSON (-0 becomes 0). */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe("the handler runs if and only if the (coerced) arguments are valid", () => {
  it("holds for generated schemas and arguments", async () => {
    const ajv = new Ajv2020({ strict: false });
    await fc.assert(
      fc.asyncProperty(toolCase, async ({ schema, args }) => {
        const oracle = ajv.compile({ ...schema });
        const server = createServer({ name: "p", version: "1" });
        const seen: unknown[] = [];
        server.tool({ name: "t", inputSchema: schema }, (a) => {
          seen.push(a);
          return "ran";
        });
        try {
          const client = await connectRaw(server);
          await initializeRaw(client);
          const response = (await client.call(1, "tools/call", { name: "t", arguments: args.sent })) as JsonRpcSuccess;
          const result = response.result as CallToolResult;
          if (seen.length === 1) {
            expect(oracle(seen[0])).toBe(true);
            expect(result.isError).toBeUndefined();
          } else {
            expect(seen).toHaveLength(0);
            expect(result.isError).toBe(true);
            expect(oracle(args.sent)).toBe(false);
          }
          if (oracle(args.sent)) expect(seen[0]).toEqual(wire(args.sent));
          // Valid arguments, some sent as strings: coerced back, the handler sees the originals.
          if (args.original !== undefined && oracle(args.original)) expect(seen[0]).toEqual(wire(args.original));
        } finally {
          await server.close();
        }
      }),
      { numRuns: 100 },
    );
  });
});
