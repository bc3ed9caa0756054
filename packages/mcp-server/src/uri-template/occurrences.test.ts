import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { occurrences } from "./occurrences";

const positions = (marks: Uint8Array) => [...marks].flatMap((m, i) => (m === 1 ? [i] : []));

describe("occurrences", () => {
  it("finds overlapping occurrences", () => {
    expect(positions(occurrences("aaaa", "aa"))).toEqual([0, 1, 2]);
    expect(positions(occurrences("abababx", "abab"))).toEqual([0, 2]);
    expect(positions(occurrences("xyz", "q"))).toEqual([]);
  });

  it("agrees with indexOf on any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom("a", "b", "/") }), fc.string({ unit: fc.constantFrom("a", "b", "/"), minLength: 1, maxLength: 4 }), (text, needle) => {
        const expected: number[] = [];
        for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) expected.push(i);
        expect(positions(occurrences(text, needle))).toEqual(expected);
      }),
    );
  });
});
