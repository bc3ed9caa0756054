import { describe, expect, it } from "vitest";
import { isDepthWithin, isDepthWithinBytes } from "./depth";

const nest = (depth: number): string => "[".repeat(depth) + "]".repeat(depth);

describe("isDepthWithin", () => {
  it("counts arrays and objects, one level each", () => {
    expect(isDepthWithin("1", 0)).toBe(true);
    expect(isDepthWithin("[]", 0)).toBe(false);
    expect(isDepthWithin("[]", 1)).toBe(true);
    expect(isDepthWithin('{"a":[{}]}', 3)).toBe(true);
    expect(isDepthWithin('{"a":[{}]}', 2)).toBe(false);
  });

  it("agrees at the limit, past the shortcuts", () => {
    for (const depth of [63, 64, 65, 129, 200]) {
      const padded = `[${"[],".repeat(100)}${nest(depth - 1)}]`;
      expect(isDepthWithin(padded, 64)).toBe(depth <= 64);
      expect(isDepthWithin(nest(depth), 64)).toBe(depth <= 64);
    }
  });

  it("ignores brackets inside strings, escapes included", () => {
    expect(isDepthWithin(`["${"[".repeat(500)}"]`, 1)).toBe(true);
    expect(isDepthWithin(`["\\"${"[".repeat(500)}"]`, 1)).toBe(true);
    expect(isDepthWithin(`["\\\\",${nest(3)}]`, 3)).toBe(false);
    expect(isDepthWithin(`["\\\\\\"]]]]]]]]]", ${nest(3)}]`, 3)).toBe(false);
    expect(isDepthWithin(`["${"]".repeat(200)}", ${nest(70)}]`, 64)).toBe(false);
  });

  it("stays exact on texts past 256 KiB, where the count is skipped", () => {
    const padding = `"${"x[{".repeat(100_000)}",`;
    for (const depth of [64, 65]) {
      const text = `[${padding}${nest(depth - 1)}]`;
      expect(text.length).toBeGreaterThan(256 * 1024);
      expect(isDepthWithin(text, 64)).toBe(depth <= 64);
      expect(isDepthWithinBytes(new TextEncoder().encode(text), 64)).toBe(depth <= 64);
    }
  });

  it("answers safely on unterminated strings and unbalanced input", () => {
    expect(isDepthWithin(`["${"[".repeat(500)}`, 2)).toBe(true);
    expect(isDepthWithin("]".repeat(500) + "[".repeat(100), 64)).toBe(true);
    expect(isDepthWithin("[".repeat(10_000_000), 64)).toBe(false);
  });

  it("does not stop early when brackets inside strings inflate the count", () => {
    // 100 openers in strings make the early stop reason with a larger total; it must stay sound.
    const text = `[${'"{",'.repeat(100)}${nest(65)}]`;
    expect(isDepthWithin(text, 65)).toBe(false);
    expect(isDepthWithin(text, 66)).toBe(true);
  });
});

describe("isDepthWithinBytes", () => {
  const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

  it("agrees with the text scan, multi-byte characters and escapes included", () => {
    for (const text of [nest(64), nest(65), `["é✓😀\\",${nest(3)}]`, `["\\\"]]]", ${nest(3)}]`, `[${'"{",'.repeat(100)}${nest(65)}]`]) {
      for (const limit of [3, 4, 64, 65, 66]) expect(isDepthWithinBytes(bytes(text), limit)).toBe(isDepthWithin(text, limit));
    }
  });

  it("refuses 10 MB of [ in a few steps", () => {
    expect(isDepthWithinBytes(new Uint8Array(10 * 1024 * 1024).fill(0x5b), 64)).toBe(false);
  });
});
