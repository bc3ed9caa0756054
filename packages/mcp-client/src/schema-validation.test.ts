import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createSchemaValidator, MAX_SCHEMA_CHARS } from "./schema-validation";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createSchemaValidator", () => {
  it("validates 2020-12 by default and draft-07 when the schema says so", () => {
    const v = createSchemaValidator();
    const modern = { type: "object", properties: { a: { type: "number" }, t: { type: "array", prefixItems: [{ type: "string" }] } } };
    expect(v.validate(modern, { a: 1, t: ["s"] })).toEqual({ ok: true });
    expect(v.validate(modern, { a: "x" })).toMatchObject({ ok: false, message: "/a must be number" });
    // prefixItems only exists in 2020-12: under draft-07 this value would pass.
    expect(v.validate(modern, { t: [1] }).ok).toBe(false);
    const legacy = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["b"] };
    expect(v.validate(legacy, {}).ok).toBe(false);
  });

  it("keeps schemas with the same $id from different servers apart", () => {
    const v = createSchemaValidator();
    expect(v.validate({ $id: "urn:x", type: "string" }, "s").ok).toBe(true);
    expect(v.validate({ $id: "urn:x", type: "number" }, "s").ok).toBe(false);
  });

  it("says why a schema cannot be compiled, and refuses huge ones", () => {
    const v = createSchemaValidator();
    expect(() => v.validate({ type: "nonsense" }, 1)).toThrow(/cannot be compiled/);
    expect(() => v.validate({ $ref: "https://example.com/remote.json" }, 1)).toThrow(/cannot be compiled/);
    expect(() => v.validate({ description: "x".repeat(MAX_SCHEMA_CHARS) }, 1)).toThrow(/limit/);
  });

  it("evicts the least recently used schema beyond its capacity", () => {
    const v = createSchemaValidator(2);
    for (let i = 0; i < 5; i++) expect(v.validate({ const: i }, i).ok).toBe(true);
    expect(v.validate({ const: 0 }, 1).ok).toBe(false);
  });

  it("keeps ajv bounded too: evicted schemas leave ajv, however many distinct schemas it sees", () => {
    const instances = new Set<Ajv2020>();
    const compile = Ajv2020.prototype.compile;
    vi.spyOn(Ajv2020.prototype, "compile").mockImplementation(function (this: Ajv2020, ...args: Parameters<Ajv2020["compile"]>) {
      instances.add(this);
      return compile.apply(this, args);
    });
    const held = (ajv: Ajv2020): number => (ajv as unknown as { _cache: Map<unknown, unknown> })._cache.size;
    const baseline = held(new Ajv2020({ strict: false, validateFormats: false, logger: false }));
    const v = createSchemaValidator(4);
    for (let i = 0; i < 300; i++) expect(v.validate({ type: "object", properties: { [`p${i}`]: { $id: `urn:nested:${i}`, const: i } } }, { [`p${i}`]: i }).ok).toBe(true);
    expect(instances.size).toBeGreaterThan(0);
    for (const ajv of instances) expect(held(ajv)).toBeLessThanOrEqual(baseline + 4);
  });
});

describe("createSchemaValidator with the interpreter (runtimes that refuse code generation)", () => {
  it("accepts and refuses what ajv does, formats as annotations, and names the failing value", () => {
    const schema = {
      type: "object",
      properties: { a: { type: "number" }, when: { type: "string", format: "date-time" }, t: { type: "array", prefixItems: [{ type: "string" }] }, c: { const: { format: "keep" } } },
    };
    const values = [{ a: 1, t: ["s"] }, { a: "x" }, { t: [1] }, { when: "not a date" }, { c: { format: "keep" } }, { c: {} }, "str"];
    const ajv = createSchemaValidator(8, "ajv");
    const interpreter = createSchemaValidator(8, "interpreter");
    expect(values.map((value) => interpreter.validate(schema, value).ok)).toEqual(values.map((value) => ajv.validate(schema, value).ok));
    expect(interpreter.validate(schema, { a: "x" })).toMatchObject({ ok: false, message: '/a Instance type "string" is invalid. Expected "number".' });
    const legacy = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: ["b"] };
    expect(interpreter.validate(legacy, {})).toMatchObject({ ok: false, message: expect.stringContaining('required property "b"') });
  });

  it("says why a schema cannot be used", () => {
    const interpreter = createSchemaValidator(8, "interpreter");
    expect(() => interpreter.validate({ $ref: "https://example.com/remote.json" }, 1)).toThrow(/cannot be compiled/);
  });
});
