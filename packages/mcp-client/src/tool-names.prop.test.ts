import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createToolNameMap, isValidToolName } from "./tool-names";

const targetArb = fc.record(
  { server: fc.constantFrom("github", "files", "s.p/a c", "ü"), name: fc.string({ maxLength: 90, unit: "grapheme" }) },
  { requiredKeys: ["name"] },
);

describe("tool names properties", () => {
  it("every provider name is valid, distinct, and maps back to its tool", () => {
    fc.assert(
      fc.property(fc.array(targetArb, { maxLength: 40 }), (targets) => {
        const map = createToolNameMap(targets);
        const providers = map.entries.map((e) => e.provider);
        expect(new Set(providers).size).toBe(providers.length);
        for (const t of targets) {
          const p = map.toProvider(t.name, t.server) as string;
          expect(isValidToolName(p)).toBe(true);
          expect(map.toMcp(p)).toEqual(t.server === undefined ? { name: t.name } : { server: t.server, name: t.name });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("names already valid and unique without a server are left alone", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/), { maxLength: 30 }), (names) => {
        const map = createToolNameMap(names.map((name) => ({ name })));
        for (const name of names) expect(map.toProvider(name)).toBe(name);
      }),
    );
  });
});
