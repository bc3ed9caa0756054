import { describe, expect, it } from "vitest";
import { createPageSource, decodeCursor, encodeCursor, paginate } from "./pagination";

const source = (keys: string[]) => createPageSource(keys, (k) => k);

describe("paginate", () => {
  it("walks a list in pages and ends without a cursor", () => {
    const s = source(["a", "b", "c", "d", "e"]);
    const first = paginate(s, undefined, 2);
    expect(first.items).toEqual(["a", "b"]);
    const second = paginate(s, first.nextCursor, 2);
    expect(second.items).toEqual(["c", "d"]);
    const last = paginate(s, second.nextCursor, 2);
    expect(last).toEqual({ items: ["e"] });
  });

  it("returns the list itself when it fits in one page", () => {
    const items = ["a", "b"];
    const s = createPageSource(items, (k) => k);
    expect(paginate(s, undefined, 10).items).toBe(items);
    expect(paginate(s, undefined, 10).nextCursor).toBeUndefined();
  });

  it("keeps its place when items are added, refuses a cursor whose item was removed", () => {
    const first = paginate(source(["a", "b", "c"]), undefined, 1);
    expect(paginate(source(["x", "a", "b", "c"]), first.nextCursor, 1).items).toEqual(["b"]);
    expect(() => paginate(source(["b", "c"]), first.nextCursor, 1)).toThrow(/Invalid cursor/);
  });

  it("refuses cursors it did not make with -32602", () => {
    const s = source(["a"]);
    for (const bad of ["", "!!", "abc", 5, {}, "x".repeat(10_000), btoa("k1:zzz")]) {
      expect(() => paginate(s, bad, 1)).toThrow(expect.objectContaining({ code: -32602 }));
    }
    expect(paginate(s, null, 1).items).toEqual(["a"]);
  });

  it("encodes any key, including non-ASCII, as base64url", () => {
    for (const key of ["a", "ü/ß", "file:///x?y=1&z", "😀"]) {
      const cursor = encodeCursor(key);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toBe(key);
    }
    expect(decodeCursor("%%%")).toBeUndefined();
  });
});
