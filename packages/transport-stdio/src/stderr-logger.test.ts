import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createStreamLogger, isLogLevel } from "./stderr-logger";

function sink() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe("createStreamLogger", () => {
  it("writes one line per entry at or above its level, an error's stack indented", () => {
    const out = sink();
    const logger = createStreamLogger(out.stream, { level: "warn", name: "x" });
    expect(logger.debug).toBeUndefined();
    expect(logger.info).toBeUndefined();
    logger.warn("careful", { id: 3 });
    logger.error("failed", new Error("why"));
    expect(out.text()).toMatch(/^\[x\] warn: careful \{"id":3\}\n\[x\] error: failed\n {2}Error: why\n +at /);
  });

  it("has debug and info at debug level, and drops warn at error level", () => {
    const out = sink();
    const verbose = createStreamLogger(out.stream, { level: "debug" });
    verbose.debug?.("wire");
    verbose.info?.("started");
    createStreamLogger(out.stream, { level: "error" }).warn("hidden");
    expect(out.text()).toBe("debug: wire\ninfo: started\n");
  });

  it("refuses an unknown level, saying which exist", () => {
    expect(() => createStreamLogger(new PassThrough(), { level: "loud" as never })).toThrow(/debug, info, warn, error/);
    expect(isLogLevel("info")).toBe(true);
    expect(isLogLevel("verbose")).toBe(false);
  });
});
