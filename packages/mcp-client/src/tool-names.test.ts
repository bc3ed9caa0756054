import { describe, expect, it } from "vitest";
import { createToolNameMap, isValidToolName } from "./tool-names";

describe("createToolNameMap", () => {
  it("keeps valid unique names as they are", () => {
    const map = createToolNameMap([{ name: "get_weather" }, { name: "search-web" }]);
    expect(map.toProvider("get_weather")).toBe("get_weather");
    expect(map.toMcp("search-web")).toEqual({ name: "search-web" });
  });

  it("replaces invalid characters and maps back to the original name", () => {
    const map = createToolNameMap([{ name: "files.read/v2" }, { name: "café" }]);
    expect(map.toProvider("files.read/v2")).toBe("files_read_v2");
    expect(map.toMcp("files_read_v2")).toEqual({ name: "files.read/v2" });
    expect(map.toProvider("café")).toBe("caf_");
  });

  it("gives the plain name to the tool that needed no change when sanitising collides", () => {
    const map = createToolNameMap([{ name: "a.b" }, { name: "a_b" }]);
    expect(map.toProvider("a_b")).toBe("a_b");
    const other = map.toProvider("a.b") as string;
    expect(other).toMatch(/^a_b_[0-9a-f]{8}$/);
    expect(map.toMcp(other)).toEqual({ name: "a.b" });
  });

  it("hashes every member of a collision where no member is lossless", () => {
    const map = createToolNameMap([{ name: "a.b" }, { name: "a/b" }]);
    const names = map.entries.map((e) => e.provider);
    expect(new Set(names).size).toBe(2);
    for (const n of names) expect(n).toMatch(/^a_b_[0-9a-f]{8}$/);
  });

  it("prefixes the server and keeps tools of different servers apart", () => {
    const map = createToolNameMap([
      { server: "github", name: "search" },
      { server: "files", name: "search" },
    ]);
    expect(map.toProvider("search", "github")).toBe("github__search");
    expect(map.toMcp("files__search")).toEqual({ server: "files", name: "search" });
    expect(map.toProvider("search")).toBeUndefined();
  });

  it("shortens long names to 64 characters with a distinguishing hash", () => {
    const long = "x".repeat(100);
    const map = createToolNameMap([{ name: long }, { name: `${long}y` }]);
    const [a, b] = map.entries.map((e) => e.provider);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(map.toMcp(a as string)).toEqual({ name: long });
  });

  it("does not depend on the order of the tools", () => {
    const tools = [{ name: "a.b" }, { name: "a/b" }, { name: "a_b" }, { name: "z".repeat(70) }];
    const forward = createToolNameMap(tools);
    const backward = createToolNameMap([...tools].reverse());
    for (const t of tools) expect(forward.toProvider(t.name)).toBe(backward.toProvider(t.name));
  });

  it("maps an empty name to a valid one and never lets a real tool steal a hashed name", () => {
    const map = createToolNameMap([{ name: "" }, { name: "tool" }]);
    const empty = map.toProvider("") as string;
    expect(isValidToolName(empty)).toBe(true);
    expect(empty).not.toBe("tool");
    expect(map.toMcp(empty)).toEqual({ name: "" });
  });

  it("answers undefined for a name the model made up", () => {
    expect(createToolNameMap([{ name: "a" }]).toMcp("b")).toBeUndefined();
  });

  it("refuses bad options", () => {
    expect(() => createToolNameMap([], { maxLength: 3 })).toThrow(/maxLength/);
    expect(() => createToolNameMap([], { separator: "." })).toThrow(/separator/);
    expect(() => createToolNameMap([], { style: "dots" as "spec" })).toThrow(/style must be "provider" or "spec"/);
  });

  it("keeps dots and allows 128 characters in the spec style", () => {
    const map = createToolNameMap([{ server: "taskman", name: "add.task" }, { server: "taskman", name: "x".repeat(125) }, { server: "taskman", name: "a/b" }], { separator: ".", style: "spec" });
    expect(map.toProvider("add.task", "taskman")).toBe("taskman.add.task");
    const long = map.toProvider("x".repeat(125), "taskman") as string;
    expect(long).toMatch(/^taskman\.x+_[0-9a-f]{8}$/);
    expect(long.length).toBe(128);
    expect(map.toProvider("a/b", "taskman")).toBe("taskman.a_b");
    expect(isValidToolName("a.b", undefined, "spec")).toBe(true);
    expect(isValidToolName("a.b")).toBe(false);
    expect(isValidToolName("x".repeat(100), undefined, "spec")).toBe(true);
  });
});
