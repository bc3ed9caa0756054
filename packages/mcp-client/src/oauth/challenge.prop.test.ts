import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseBearerChallenge, parseWwwAuthenticate } from "./challenge";

const token = fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/);
const quotable = fc.string({ maxLength: 20 }).map((s) => s.replace(/[\u0000-\u001f\u007f]/g, ""));

describe("WWW-Authenticate properties", () => {
  it("never throws on any input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (header) => {
        expect(Array.isArray(parseWwwAuthenticate(header))).toBe(true);
        parseBearerChallenge(header);
      }),
    );
  });

  it("reads back every parameter it is given, quoted with escapes", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(token, quotable), { selector: ([name]) => name, maxLength: 6 }), (params) => {
        const header = `Bearer ${params.map(([name, value]) => `${name}="${value.replace(/["\\]/g, "\\$&")}"`).join(", ")}`;
        const [challenge] = parseWwwAuthenticate(header);
        expect(challenge?.scheme).toBe("bearer");
        expect(challenge?.params).toEqual(Object.fromEntries(params));
      }),
    );
  });

  it("caps its work on huge headers", () => {
    const header = `Bearer scope="${"a ".repeat(100_000)}"`;
    expect(parseWwwAuthenticate(header)[0]?.params.scope?.length).toBeLessThanOrEqual(16 * 1024);
  });
});
