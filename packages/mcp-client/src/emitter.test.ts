import { describe, expect, it } from "vitest";
import { createEmitter } from "./emitter";

describe("createEmitter", () => {
  it("calls listeners in order, unsubscribes, and isolates a throwing listener", () => {
    const errors: unknown[] = [];
    const e = createEmitter<{ x: number }>((error) => errors.push(error));
    const seen: string[] = [];
    const off = e.on("x", (n) => seen.push(`a${n}`));
    e.on("x", () => {
      throw new Error("bad listener");
    });
    e.on("x", (n) => seen.push(`c${n}`));
    e.emit("x", 1);
    off();
    off();
    e.emit("x", 2);
    expect(seen).toEqual(["a1", "c1", "c2"]);
    expect(errors).toHaveLength(2);
    expect(e.has("x")).toBe(true);
    e.clear();
    expect(e.has("x")).toBe(false);
  });

  it("counts the same function registered twice as two registrations", () => {
    const e = createEmitter<{ x: number }>(() => {});
    let n = 0;
    const fn = () => n++;
    const off1 = e.on("x", fn);
    e.on("x", fn);
    off1();
    e.emit("x", 0);
    expect(n).toBe(1);
  });

  it("refuses a listener that is not a function", () => {
    const e = createEmitter<{ x: number }>(() => {});
    expect(() => e.on("x", "nope" as unknown as () => void)).toThrow(/must be a function/);
  });
});
