import { describe, expect, it } from "vitest";
import { MAX_TEMPLATE_EXPRESSIONS, MAX_TEMPLATE_LENGTH, parseTemplate } from "./parse";
import { createUriTemplate, isUriTemplate } from "./template";

describe("parseTemplate", () => {
  it("splits literals and expressions with operators and modifiers", () => {
    expect(parseTemplate("a/{+b}{?c:3,d*}")).toEqual([
      { kind: "literal", text: "a/" },
      { kind: "expression", op: "+", vars: [{ name: "b", explode: false, prefix: undefined }] },
      {
        kind: "expression",
        op: "?",
        vars: [
          { name: "c", explode: false, prefix: 3 },
          { name: "d", explode: true, prefix: undefined },
        ],
      },
    ]);
  });

  it("accepts dotted and percent-encoded variable names", () => {
    expect(createUriTemplate("{a.b,%41_1}").variableNames).toEqual(["a.b", "%41_1"]);
  });

  it.each([
    ["{", /"\{" is never closed/],
    ["a{b", /at character 2/],
    ["a}b", /"\}" without a matching "\{"/],
    ["{}", /empty expression/],
    ["{a{b}}", /never closed/],
    ["{=a}", /reserved for future extensions/],
    ["{|a}", /reserved/],
    ["{a b}", /not a variable name/],
    ["{a,}", /not a variable name/],
    ["{.a.}", /not a variable name/],
    ["{a:0}", /prefix length "0"/],
    ["{a:10000}", /prefix length/],
    ["{a:}", /prefix length/],
    ["{a:2*}", /not a variable name|combines/],
    ["{a%4}", /not a variable name/],
  ])("rejects %s with a message that says where", (template, message) => {
    expect(() => parseTemplate(template)).toThrow(TypeError);
    expect(() => parseTemplate(template)).toThrow(message);
  });

  it("bounds the template's length and expression count", () => {
    expect(() => parseTemplate("a".repeat(MAX_TEMPLATE_LENGTH + 1))).toThrow(/longer than/);
    expect(() => parseTemplate("{a}".repeat(MAX_TEMPLATE_EXPRESSIONS + 1))).toThrow(/more than/);
    expect(parseTemplate("{a}".repeat(MAX_TEMPLATE_EXPRESSIONS))).toHaveLength(MAX_TEMPLATE_EXPRESSIONS);
  });

  it("tells templates from plain URIs", () => {
    expect(isUriTemplate("file:///{path}")).toBe(true);
    expect(isUriTemplate("file:///a.txt")).toBe(false);
    expect(isUriTemplate("a{b")).toBe(false);
  });
});
