import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createUriTemplate } from "./template";
import type { UriTemplateValue } from "./expand";

type Op = "" | "." | "/" | ";" | "?" | "&";
interface Var {
  name: string;
  explode: boolean;
  prefix: number | undefined;
  value: UriTemplateValue;
  expected: unknown;
}
interface Expr {
  op: Op;
  vars: Var[];
}

const text = fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 });
const codePoints = (s: string, n: number | undefined) => (n === undefined ? s : [...s].slice(0, n).join(""));

/** One variable whose expansion can be matched back unambiguously in its expression. */
function variable(op: Op, name: string, multi: boolean, explodeAllowed: boolean): fc.Arbitrary<Var> {
  const named = op === ";" || op === "?" || op === "&";
  // In "." expressions with separators, an unencoded "." inside a value would be ambiguous.
  const item = op === "." && multi ? text.filter((s) => !s.includes(".")) : named ? fc.oneof(text, fc.constant("")) : text;
  const list = fc.array(item, { minLength: 2, maxLength: 4 });
  const variants: fc.Arbitrary<Var>[] = [
    item.map((s) => ({ name, explode: false, prefix: undefined, value: s, expected: s })),
    fc.tuple(item, fc.integer({ min: 1, max: 5 })).map(([s, n]) => ({ name, explode: false, prefix: n, value: s, expected: codePoints(s, n) })),
  ];
  if (named || (op !== "" && !multi)) variants.push(list.map((l) => ({ name, explode: false, prefix: undefined, value: l, expected: l })));
  if (explodeAllowed) {
    // An exploded "." list joins its items with ".": an unencoded "." inside an item would be ambiguous too.
    const member = op === "." ? text.filter((s) => !s.includes(".")) : item;
    variants.push(fc.array(member, { minLength: 1, maxLength: 4 }).map((l) => ({ name, explode: true, prefix: undefined, value: l, expected: l })));
  }
  if (named || !multi) variants.push(fc.constant({ name, explode: false, prefix: undefined, value: undefined, expected: undefined }));
  return fc.oneof(...variants);
}

function expression(index: number): fc.Arbitrary<Expr> {
  return fc.constantFrom<Op>("", ".", "/", ";", "?", "&").chain((op) => {
    const named = op === ";" || op === "?" || op === "&";
    return fc.integer({ min: 1, max: 3 }).chain((count) => {
      // Unnamed expressions get at most one exploded variable (several would be ambiguous).
      const explodeAt = named ? -2 : count === 1 || op !== "" ? Math.floor(count / 2) : -1;
      const vars = Array.from({ length: count }, (_, i) =>
        variable(op, `v${index}_${i}`, count > 1, named || i === explodeAt),
      );
      return fc.tuple(...vars).map((vs) => ({ op, vars: vs }));
    });
  });
}

const spec = (v: Var) => `${v.name}${v.explode ? "*" : v.prefix !== undefined ? `:${v.prefix}` : ""}`;

const scenario = fc
  .tuple(
    fc.constantFrom("", "res://host/", "file:///a/"),
    fc.integer({ min: 1, max: 4 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => expression(i)))),
    fc.option(fc.tuple(fc.constantFrom("+", "#"), text.filter((s) => !s.includes("%")))),
  )
  .map(([head, exprs, tail]) => {
    let template = head;
    const values: Record<string, UriTemplateValue> = {};
    const expected: Record<string, unknown> = {};
    for (const e of exprs) {
      template += `{${e.op}${e.vars.map(spec).join(",")}}!`;
      for (const v of e.vars) {
        values[v.name] = v.value;
        if (v.expected !== undefined) expected[v.name] = v.expected;
      }
    }
    if (tail) {
      template += `{${tail[0]}rest}`;
      values.rest = tail[1];
      expected.rest = tail[1];
    }
    return { template, values, expected };
  });

describe("URI template properties", () => {
  it("matching an expansion gives the values back", () => {
    fc.assert(
      fc.property(scenario, ({ template, values, expected }) => {
        const t = createUriTemplate(template, { optional: createUriTemplate(template).variableNames });
        const uri = t.expand(values);
        expect(JSON.parse(JSON.stringify(t.match(uri) ?? null))).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  const anyTemplate = fc
    .array(
      fc.oneof(
        fc.constantFrom("a", "/", "?", "=", "&", ",", ".", "x/", "%41"),
        fc.tuple(fc.constantFrom("", "+", "#", ".", "/", ";", "?", "&"), fc.constantFrom("a", "b*", "c:2", "a,b", "d*,e")).map(
          ([op, vars]) => `{${op}${vars}}`,
        ),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(""));

  it("any URI against any template: an answer, never a throw", () => {
    const uri = fc.array(fc.constantFrom("a", "/", "?", "=", "&", ",", ".", "%", "%41", "#", ";", "é", " ", "\uD800"), { maxLength: 40 });
    fc.assert(
      fc.property(anyTemplate, uri, (template, chars) => {
        const result = createUriTemplate(template).match(chars.join(""));
        expect(result === undefined || typeof result === "object").toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("without optional variables, a match gives every variable a value that is not empty", () => {
    const uri = fc.array(fc.constantFrom("a", "/", "?", "=", "&", ",", ".", "%41", "#", ";", "x/"), { maxLength: 24 });
    fc.assert(
      fc.property(anyTemplate, uri, (template, chars) => {
        const t = createUriTemplate(template);
        const result = t.match(chars.join(""));
        if (result === undefined) return;
        for (const name of t.variableNames) expect(result[name] === undefined || result[name] === "", `${template} ${chars.join("")} ${name}`).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it("completes on 100 KB adversarial URIs", () => {
    const templates = ["{a}{b}{c}{d}", "{+a}/{+b}/{+c}/x", "{/a*}{/b*}/end", "{?a*}{&b*}", "x{.a,b,c}y", "{+a},{+b},{+c}!"];
    const unit = fc.constantFrom("a", "/", ",", ".", "=", "&", "a=", "%2");
    fc.assert(
      fc.property(fc.constantFrom(...templates), fc.array(unit, { minLength: 1, maxLength: 4 }), (template, pattern) => {
        const piece = pattern.join("");
        const uri = piece.repeat(Math.ceil(100_000 / piece.length)) + "!";
        const result = createUriTemplate(template).match(uri);
        expect(result === undefined || typeof result === "object").toBe(true);
      }),
      { numRuns: 40 },
    );
  });
});
