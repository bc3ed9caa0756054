import { describe, expect, it } from "vitest";
import { createSchemaCompiler } from "./validation";

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe("createSchemaCompiler", () => {
  it("checks a schema that admits every object without a compiler, with ajv's error for a non-object", async () => {
    const compiled = createSchemaCompiler(logger).compile({ type: "object", properties: {}, description: "no arguments" }, "tool t");
    await compiled.prepare();
    expect(compiled.validate({ anything: 1 })).toBe(true);
    expect(compiled.errors).toEqual([]);
    expect(compiled.validate([1])).toBe(false);
    expect(compiled.errors).toMatchObject([{ keyword: "type", instancePath: "", schemaPath: "#/type", params: { type: "object" } }]);
    expect(compiled.validate(null)).toBe(false);
  });

  it("still compiles every schema that can refuse an object", async () => {
    const compiler = createSchemaCompiler(logger);
    const cases: [{ [key: string]: unknown }, unknown][] = [
      [{ type: "object", properties: { x: { type: "string" } } }, { x: 1 }],
      [{ type: "object", required: ["x"] }, { y: 2 }],
      [{ type: "object", additionalProperties: false, properties: {} }, { y: 2 }],
      [{ type: "object", properties: {}, maxProperties: 0 }, { y: 2 }],
    ];
    for (const [schema, value] of cases) {
      const compiled = compiler.compile(schema, "tool t");
      await compiled.prepare();
      expect(compiled.validate(value)).toBe(false);
    }
  });
});
