import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { redirectConsoleToStderr } from "./console-redirect";

describe("redirectConsoleToStderr", () => {
  it("sends console.log/info/debug/table to the target and restores them", () => {
    const target = new PassThrough();
    let text = "";
    target.on("data", (chunk: Buffer) => (text += chunk.toString()));
    const original = console.log;
    const restore = redirectConsoleToStderr(target);
    try {
      expect(console.log).not.toBe(original);
      console.log("to %s", "stderr");
      console.info("info");
      console.debug("debug");
      console.table([{ a: 1 }]);
    } finally {
      restore();
    }
    restore();
    expect(console.log).toBe(original);
    expect(text).toContain("to stderr\n");
    expect(text).toContain("info\n");
    expect(text).toContain("debug\n");
    expect(text).toContain("┌");
  });
});
