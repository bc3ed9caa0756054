import { describe, expect, it } from "vitest";
import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { spawnRaw } from "./testing/raw-child";

describe("a stdio server process", () => {
  it("answers garbage, invalid UTF-8 and too-deep nesting with errors, and keeps serving", async () => {
    const server = spawnRaw("echo-server.ts");
    await server.stderr("ready");
    server.child.stdin.write("hello there\n");
    server.child.stdin.write(new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x0a]));
    server.child.stdin.write(`${"[".repeat(100_000)}${"]".repeat(100_000)}\n`);
    server.child.stdin.write('{"jsonrpc":"2.0","id":"x","method":"echo","params":["ok"]}\n');
    const lines = await server.lines(4);
    expect(lines.slice(0, 2)).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: JsonRpcErrorCode.ParseError }) },
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: JsonRpcErrorCode.ParseError }) },
    ]);
    expect(lines[2]).toMatchObject({ jsonrpc: "2.0", id: null, error: {} });
    expect(lines[3]).toEqual({ jsonrpc: "2.0", id: "x", result: ["ok"] });
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("exits when its stdin is closed", async () => {
    const server = spawnRaw("echo-server.ts");
    await server.stderr("ready");
    server.child.stdin.end();
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("answers what it already received when stdin ends right after the request", async () => {
    const server = spawnRaw("echo-server.ts");
    server.child.stdin.end('{"jsonrpc":"2.0","id":1,"method":"echo","params":{"piped":true}}\n');
    expect(await server.lines(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { piped: true } }]);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("serveStdio in a process", () => {
  it("prints a banner whose example lines work when pasted, keeps stdout for frames, and exits on stdin's end", async () => {
    const server = spawnRaw("serve.ts");
    const banner = await server.stderr("tools/call");
    expect(banner).toContain("fixture-server 1.2.3 · MCP 2025-11-25 · stdio");
    expect(banner).toContain("2 tools: greet, add");
    const examples = banner.split("\n").filter((line) => line.startsWith("{"));
    expect(examples.map((line) => (JSON.parse(line) as { method: string }).method)).toEqual([
      "initialize",
      "notifications/initialized",
      "tools/list",
      "tools/call",
    ]);
    server.child.stdin.write(examples.join("\n") + "\n");
    const lines = await server.lines(3);
    expect(lines).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ protocolVersion: "2025-11-25" }) }),
      expect.objectContaining({ id: 2, result: { tools: expect.any(Array) } }),
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "called greet" }] } },
    ]);
    // The tool's console.log went to stderr: stdout held nothing but those frames.
    await server.stderr("stray console.log from a tool");
    server.child.stdin.end();
    // The fixture has an interval that would keep it alive: serveStdio exits anyway.
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});
