import { describe, expect, it } from "vitest";
import { coerceArguments } from "./coercion";

describe("coerceArguments", () => {
  it("coerces by the schema's type", () => {
    const schema = { type: "object", properties: { n: { type: "number" }, i: { type: "integer" }, b: { type: "boolean" }, a: { type: "array" }, o: { type: "object" } } };
    expect(coerceArguments({ n: " 1.5 ", i: "-3", b: "true", a: "[1]", o: '{"x":1}' }, schema)).toEqual({ n: 1.5, i: -3, b: true, a: [1], o: { x: 1 } });
  });
  it("leaves values alone when they cannot be coerced or the schema accepts strings", () => {
    const schema = { type: "object", properties: { n: { type: "number" }, s: { type: ["string", "number"] }, i: { type: "integer" }, b: { type: "boolean" }, a: { type: "array" } } };
    const value = { n: "1,5", s: "2", i: "1.5", b: "yes", a: "{}" };
    expect(coerceArguments(value, schema)).toBe(value);
    expect(coerceArguments({ n: "Infinity" }, schema)).toEqual({ n: "Infinity" });
    expect(coerceArguments({ i: "99999999999999999999" }, schema)).toEqual({ i: "99999999999999999999" });
  });
  it("follows $ref, allOf/anyOf branches, items, prefixItems and additionalProperties", () => {
    const schema = {
      type: "object",
      $defs: { count: { type: "integer" } },
      properties: {
        r: { $ref: "#/$defs/count" },
        any: { anyOf: [{ type: "number" }, { type: "null" }] },
        list: { type: "array", items: { type: "boolean" } },
        pair: { type: "array", prefixItems: [{ type: "integer" }, { type: "boolean" }] },
        map: { type: "object", additionalProperties: { type: "number" } },
      },
      allOf: [{ properties: { extra: { type: "integer" } } }],
    };
    expect(coerceArguments({ r: "2", any: "3", list: ["true", "false"], pair: ["1", "true"], map: { x: "4" }, extra: "5" }, schema)).toEqual({
      r: 2, any: 3, list: [true, false], pair: [1, true], map: { x: 4 }, extra: 5,
    });
  });
  it("never mutates its input and refuses JSON deeper than 64 levels", () => {
    const input = { a: "[1]" };
    const out = coerceArguments(input, { properties: { a: { type: "array" } } });
    expect(input).toEqual({ a: "[1]" });
    expect(out).toEqual({ a: [1] });
    const deep = "[".repeat(100) + "]".repeat(100);
    expect(coerceArguments({ a: deep }, { properties: { a: { type: "array" } } })).toEqual({ a: deep });
  });
  it("survives a self-referencing schema", () => {
    const schema = { $ref: "#", type: "object", properties: { child: { $ref: "#" }, n: { type: "number" } } };
    expect(coerceArguments({ n: "1", child: { n: "2", child: { n: "3" } } }, schema)).toEqual({ n: 1, child: { n: 2, child: { n: 3 } } });
  });
});
