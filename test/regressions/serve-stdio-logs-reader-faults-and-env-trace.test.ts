/**
 * Issue 18, "Seeing what happens", the parts the handler-fault regression does not cover: a
 * throwing resource reader leaves a trace on stderr under `serveStdio`'s default logger, and the
 * wire trace is switched on by the environment (`PROTO_MCP_TRACE=1`) with tokens redacted.
 */
import { PassThrough } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { serveStdio } from "@proto/transport-stdio/node";

const saved = process.env.PROTO_MCP_TRACE;
afterEach(() => {
  if (saved === undefined) delete process.env.PROTO_MCP_TRACE;
  else process.env.PROTO_MCP_TRACE = saved;
});

async function serve(trace: boolean) {
  const server = createServer({ name: "faulty", version: "1.0.0" });
  server.resource({ uri: "test://broken", name: "broken" }, () => {
    throw new Error("the shelf collapsed");
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const lines: string[] = [];
  stdout.on("data", (chunk: Buffer) => lines.push(...chunk.toString().split("\n").filter(Boolean)));
  if (trace) process.env.PROTO_MCP_TRACE = "1";
  else delete process.env.PROTO_MCP_TRACE;
  const service = await serveStdio(server, { stdin, stdout, stderr, redirectConsole: false, exitOnClose: false });
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  send({ jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: "test://broken", _meta: { authToken: "s3cr3t-t0k3n" } } });
  await expect.poll(() => lines.length).toBe(2);
  return { service, lines, err: () => err };
}

it("logs a throwing resource reader to stderr by default, and answers the read with an error", async () => {
  const { service, lines, err } = await serve(false);
  expect(JSON.parse(lines[1] as string)).toMatchObject({ id: 2, error: { code: expect.any(Number) } });
  expect(err()).toContain("the shelf collapsed");
  expect(err()).not.toContain("stdio <-");
  await service.close();
});

it("traces the wire to stderr when PROTO_MCP_TRACE=1, secrets redacted", async () => {
  const { service, err } = await serve(true);
  expect(err()).toMatch(/stdio <- \{"jsonrpc":"2.0","id":2,"method":"resources\/read"/);
  expect(err()).toMatch(/stdio -> \{"jsonrpc":"2.0","id":2,"error"/);
  expect(err()).toContain('"authToken":"[redacted]"');
  expect(err()).not.toContain("s3cr3t-t0k3n");
  await service.close();
});
