import { describe, expect, it } from "vitest";
import { toBase64, toReadResult } from "./contents";

describe("toReadResult", () => {
  const where = "test";
  it("turns strings into text and bytes into base64 blobs, with the resource's mimeType", () => {
    expect(toReadResult("hi", "a://x", "text/plain", where)).toEqual({ contents: [{ uri: "a://x", mimeType: "text/plain", text: "hi" }] });
    expect(toReadResult(new Uint8Array([104, 105]), "a://x", undefined, where)).toEqual({ contents: [{ uri: "a://x", blob: "aGk=" }] });
    expect(toReadResult(new Uint8Array([1, 2, 3]).buffer, "a://x", undefined, where)).toEqual({ contents: [{ uri: "a://x", blob: "AQID" }] });
  });

  it("accepts items, lists and full results; items may name their own uri and type", () => {
    expect(toReadResult([{ text: "a" }, { uri: "a://y", mimeType: "image/png", blob: "AA==" }], "a://x", "text/plain", where)).toEqual({
      contents: [
        { uri: "a://x", mimeType: "text/plain", text: "a" },
        { uri: "a://y", mimeType: "image/png", blob: "AA==" },
      ],
    });
    expect(toReadResult({ contents: [{ uri: "a://x", text: "t" }], _meta: { k: 1 } }, "a://x", undefined, where)).toEqual({
      contents: [{ uri: "a://x", text: "t" }],
      _meta: { k: 1 },
    });
  });

  it("says undefined for a missing resource, and refuses bad shapes", () => {
    expect(toReadResult(undefined, "a://x", undefined, where)).toBeUndefined();
    expect(toReadResult(null, "a://x", undefined, where)).toBeUndefined();
    expect(() => toReadResult({ text: "a", blob: "AA==" } as never, "a://x", undefined, where)).toThrow(/exactly one of text/);
    expect(() => toReadResult({} as never, "a://x", undefined, where)).toThrow(TypeError);
    expect(() => toReadResult({ blob: "not base64!" }, "a://x", undefined, where)).toThrow(/base64/);
    expect(() => toReadResult([42] as never, "a://x", undefined, where)).toThrow(TypeError);
  });

  it("encodes large binaries in chunks, like btoa over the whole", () => {
    const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 31) % 256);
    let binary = "";
    for (const b of bytes) binary += String.fromCharCode(b);
    expect(toBase64(bytes)).toBe(btoa(binary));
  });
});
