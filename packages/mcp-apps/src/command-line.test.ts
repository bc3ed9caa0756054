import { describe, expect, it } from "vitest";
import { splitCommandLine } from "./command-line";
import { parseModuleSpecifier } from "./load-module";

describe("splitCommandLine", () => {
  it("splits words, honours quotes and escapes, runs no shell", () => {
    expect(splitCommandLine("node server.js --stdio")).toEqual({ command: "node", args: ["server.js", "--stdio"] });
    expect(splitCommandLine(`  node "my server.js"  'a $HOME b' x\\ y "q\\"t" '' `)).toEqual({ command: "node", args: ["my server.js", "a $HOME b", "x y", 'q"t', ""] });
    expect(splitCommandLine("a;rm -rf /")).toEqual({ command: "a;rm", args: ["-rf", "/"] });
  });

  it("refuses unterminated quotes and empty commands", () => {
    expect(() => splitCommandLine(`node "x`)).toThrow(/unterminated " quote/);
    expect(() => splitCommandLine("   ")).toThrow(/command line is empty/);
    expect(() => splitCommandLine('""')).toThrow(/command line is empty/);
  });
});

describe("parseModuleSpecifier", () => {
  it("splits the export name after the last #", () => {
    expect(parseModuleSpecifier("dist/server.js")).toEqual({ path: "dist/server.js", exportName: undefined });
    expect(parseModuleSpecifier("dist/server.js#make")).toEqual({ path: "dist/server.js", exportName: "make" });
    expect(() => parseModuleSpecifier("dist/server.js#")).toThrow(/name the export after '#'/);
  });
});
