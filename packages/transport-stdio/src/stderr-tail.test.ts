import { describe, expect, it } from "vitest";
import { createStderrTail } from "./stderr-tail";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("createStderrTail", () => {
  it("keeps the last lines across chunks, with the unfinished one last", () => {
    const tail = createStderrTail(3);
    tail.push(bytes("one\ntw"));
    tail.push(bytes("o\r\nthree\nfour\nfi"));
    expect(tail.lines()).toEqual(["three", "four", "fi"]);
    tail.push("ve\n");
    expect(tail.lines()).toEqual(["three", "four", "five"]);
  });

  it("bounds line length and count, even without newlines", () => {
    const tail = createStderrTail(2, 10);
    for (let i = 0; i < 1000; i++) tail.push(bytes("x".repeat(1000)));
    expect(tail.lines()).toEqual([`${"x".repeat(10)}…`]);
    tail.push("\nshort\n");
    expect(tail.lines()).toEqual([`${"x".repeat(10)}…`, "short"]);
  });

  it("decodes a character split across chunks, and keeps nothing with 0 lines", () => {
    const tail = createStderrTail(5);
    const text = bytes("é!\n");
    tail.push(text.subarray(0, 1));
    tail.push(text.subarray(1));
    expect(tail.lines()).toEqual(["é!"]);
    const none = createStderrTail(0);
    none.push("a\nb");
    expect(none.lines()).toEqual([]);
  });
});
