import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { segment } from "./match";
import { parseTemplate } from "./parse";
import { compileMatcher } from "./program";

const piece = fc.oneof(
  fc.constantFrom("a", "/", "?", "=", "&", ",", ".", "x/", "%41", "!", "#"),
  fc
    .tuple(fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&"), fc.constantFrom("a", "b*", "c:2", "a,b", "d*,e"))
    .map(([op, vars]) => `{${op}${vars}}`),
);
const uri = fc.array(fc.constantFrom("a", "/", "?", "=", "&", ",", ".", "%41", "!", "#", ";", "é"), { maxLength: 30 }).map((a) => a.join(""));

describe("segment", () => {
  it("the forward scan of a deterministic template equals the table walk", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), uri, (parts, text) => {
        const program = compileMatcher(parseTemplate(parts.join("")));
        fc.pre(program.deterministic);
        expect(segment(program, text)).toEqual(segment(program, text, true));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles chains longer than one 32-bit word of states", () => {
    const template = Array.from({ length: 40 }, (_, i) => `{/v${i}}`).join("") + "{+rest}";
    const program = compileMatcher(parseTemplate(template));
    expect(program.states).toBeGreaterThan(64);
    expect(program.deterministic).toBe(false);
    const text = Array.from({ length: 40 }, (_, i) => `/${i}`).join("") + "tail";
    const spans = segment(program, text);
    expect(spans?.slice(0, 3)).toEqual(["0", "1", "2"]);
    expect(spans?.[39]).toBe("39tail");
    expect(segment(program, "no-slash")).toEqual([...Array(40).fill(undefined), "no-slash"]);
  });

  it("knows which templates one scan decides", () => {
    const deterministic = (t: string) => compileMatcher(parseTemplate(t)).deterministic;
    expect(deterministic("users/{id}")).toBe(true);
    expect(deterministic("users/{id}/posts{?limit,offset}")).toBe(true);
    expect(deterministic("file:///{+path}")).toBe(true);
    expect(deterministic("{/path}{?q}")).toBe(true);
    expect(deterministic("{name}.{ext}")).toBe(false);
    expect(deterministic("{+a}/{b}")).toBe(false);
    expect(deterministic("{a}{b}")).toBe(false);
  });
});
