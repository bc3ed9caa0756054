/**
 * Regression: a tool handler that threw under `serveStdio` left no trace anywhere (the server's
 * default logger discards). Now serveStdio hands its stderr logger to a server created without
 * one, so the fault and its stack reach stderr while the client gets -32603 or isError.
 */
import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { serveStdio } from "@proto/transport-stdio/node";

it("logs a throwing tool handler to stderr by default", async () => {
  const server = createServer({ name: "faulty", version: "1.0.0" });
  server.tool({ name: "explode", inputSchema: { type: "object" } }, () => {
    throw new Error("the disk is on fire");
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const lines: string[] = [];
  stdout.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  const service = await serveStdio(server, { stdin, stdout, stderr, redirectConsole: false, exitOnClose: false });
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "explode", arguments: {} } });
  await expect.poll(() => lines.length).toBe(2);
  expect(JSON.parse(lines[1] as string)).toMatchObject({ id: 2 });
  expect(err).toContain(`[mcp] warn: Tool "explode" threw`);
  expect(err).toContain("the disk is on fire");
  expect(err).not.toContain("faulty 1.0.0 · MCP"); // no banner: stdin is not a terminal
  await service.close();
});
