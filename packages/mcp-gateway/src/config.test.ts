import { describe, expect, it } from "vitest";
import { GatewayConfigError, parseGatewayConfig } from "./config";

function issues(value: unknown): readonly { path: string; message: string }[] {
  try {
    parseGatewayConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.issues;
    throw error;
  }
  return [];
}

describe("parseGatewayConfig", () => {
  it("reads the reference's registry and the mcpServers shape", () => {
    expect(parseGatewayConfig({ version: 1, clis: { taskman: { command: ["python", "app.py", "--mcp"], description: "Tasks", version: "0.1.0" } } })).toEqual({
      taskman: { command: ["python", "app.py", "--mcp"], description: "Tasks" },
    });
    expect(
      parseGatewayConfig({
        mcpServers: {
          files: { command: "npx", args: ["-y", "files-mcp"], env: { TOKEN: "${env:TOKEN}" }, tools: { deny: ["delete_*"] }, lifecycle: "lazy" },
          remote: { url: "https://mcp.example.com/mcp", headers: { "X-Team": "a" }, auth: { bearerEnv: "REMOTE_TOKEN" }, required: true },
          old: { type: "sse", url: "http://127.0.0.1:9000/sse" },
        },
      }),
    ).toEqual({
      files: { command: "npx", args: ["-y", "files-mcp"], env: { TOKEN: "${env:TOKEN}" }, tools: { deny: ["delete_*"] }, lifecycle: "lazy" },
      remote: { url: "https://mcp.example.com/mcp", headers: { "X-Team": "a" }, auth: { bearerEnv: "REMOTE_TOKEN" }, required: true },
      old: { type: "sse", url: "http://127.0.0.1:9000/sse" },
    });
  });

  it("reports every problem with its path, not just the first", () => {
    expect(
      issues({
        mcpServers: {
          My_Server: { command: "x" },
          a: { command: 3, args: "no", timeoutMs: -1, lifecycle: "sometimes", protocol: "2024-11-05", tools: { allow: "x", only: [] }, colour: "red" },
          b: { url: "ftp://x", auth: { token: 1 } },
          c: {},
        },
      }),
    ).toEqual([
      { path: "mcpServers.My_Server", message: expect.stringContaining('e.g. "my-server"') },
      { path: "mcpServers.a.command", message: expect.stringContaining("non-empty string or an array") },
      { path: "mcpServers.a.args", message: "must be an array of strings" },
      { path: "mcpServers.a.colour", message: "unknown key" },
      { path: "mcpServers.a.timeoutMs", message: "must be a number of milliseconds >= 0" },
      { path: "mcpServers.a.lifecycle", message: 'must be "eager" or "lazy"' },
      { path: "mcpServers.a.protocol", message: 'must be "auto", "2026-07-28" or "2025-11-25"' },
      { path: "mcpServers.a.tools.allow", message: expect.stringContaining("array of glob") },
      { path: "mcpServers.a.tools.only", message: expect.stringContaining("unknown key") },
      { path: "mcpServers.b.url", message: "must be an http:// or https:// URL" },
      { path: "mcpServers.b.auth", message: expect.stringContaining("bearerEnv") },
      { path: "mcpServers.c.command", message: expect.stringContaining("is required") },
    ]);
    expect(issues({ version: 2, clis: {} })).toEqual([{ path: "version", message: expect.stringContaining("must be 1") }]);
    expect(issues([])).toEqual([{ path: "(root)", message: expect.stringContaining("must be an object") }]);
    expect(issues({ servers: {} })).toEqual([{ path: "(root)", message: expect.stringContaining("mcpServers") }]);
  });

  it("says where and what in the error message", () => {
    expect(() => parseGatewayConfig({ mcpServers: { a: {} } }, "gateway.json")).toThrow(/gateway.json is not a valid gateway config \(1 problem\):\n {2}mcpServers\.a\.command: is required/);
  });
});
