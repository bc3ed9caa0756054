import { describe, expect, it } from "vitest";
import { exampleLines, formatBanner } from "./banner";

const summary = { name: "weather", version: "2.0.0", protocolVersion: "2025-11-25", tools: ["forecast", "alerts"] };

describe("formatBanner", () => {
  it("names the server, the protocol version, the transport and the tools", () => {
    const lines = formatBanner(summary).split("\n");
    expect(lines[0]).toBe("weather 2.0.0 · MCP 2025-11-25 · stdio");
    expect(lines[1]).toBe("2 tools: forecast, alerts");
    expect(formatBanner(summary).endsWith("\n")).toBe(true);
  });

  it("names the 2026-07-28 revisions served per request before the session one", () => {
    const both = { ...summary, statelessVersions: ["2026-07-28"] };
    expect(formatBanner(both).split("\n")[0]).toBe("weather 2.0.0 · MCP 2026-07-28 + 2025-11-25 · stdio");
    expect(formatBanner({ ...summary, statelessVersions: [] }).split("\n")[0]).toBe("weather 2.0.0 · MCP 2025-11-25 · stdio");
  });

  it("gives pasteable MCP lines: initialize, initialized, tools/list, a call of the first tool", () => {
    const parsed = exampleLines(summary).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed).toEqual([
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "terminal", version: "1.0.0" } },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "forecast", arguments: {} } },
    ]);
    expect(formatBanner(summary)).toContain(exampleLines(summary).join("\n"));
  });

  it("has no tools/call line without tools, and shortens a long tool list", () => {
    expect(exampleLines({ ...summary, tools: [] }).some((line) => line.includes("tools/call"))).toBe(false);
    expect(formatBanner({ ...summary, tools: [] })).toContain("\n0 tools\n");
    const many = Array.from({ length: 25 }, (_, i) => `t${i}`);
    expect(formatBanner({ ...summary, tools: many })).toContain("25 tools: t0, t1,");
    expect(formatBanner({ ...summary, tools: many })).toContain("t19, and 5 more");
    expect(formatBanner({ ...summary, tools: ["one"] })).toContain("1 tool: one");
  });

  it("keeps control characters of names out of the terminal, but not out of the JSON lines", () => {
    const text = formatBanner({ ...summary, name: "evil\u001b[2J", tools: ["a\nb"] });
    expect(text).not.toContain("\u001b");
    expect(text.split("\n")[1]).toBe("1 tool: a?b");
    expect(JSON.parse(exampleLines({ ...summary, tools: ["a\nb"] })[3] as string).params.name).toBe("a\nb");
  });
});
