import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createPeer } from "@proto/jsonrpc";
import type { Logger, Transport } from "@proto/jsonrpc";
import { serveStdio } from "./serve-stdio";

const summary = () => ({ name: "demo", version: "0.1.0", protocolVersion: "2025-11-25", tools: ["echo"] });

function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let err = "";
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  return { stdin, stdout, stderr, err: () => err };
}

describe("serveStdio", () => {
  it("connects the server, prints the banner to stderr, and returns the session", async () => {
    const io = streams();
    const server = {
      async connect(transport: Transport) {
        const peer = createPeer(transport);
        await peer.start();
        return { peer };
      },
      summary,
    };
    const service = await serveStdio(server, { ...io, redirectConsole: false, banner: true });
    expect(io.err()).toContain("demo 0.1.0 · MCP 2025-11-25 · stdio");
    expect(io.err()).toContain('"method":"tools/call","params":{"name":"echo","arguments":{}}');
    io.stdin.end();
    expect(await service.closed).toBeUndefined();
    expect(await service.session.peer.closed).toBeUndefined();
  });

  it("prints no banner when asked not to, and restores the console on close", async () => {
    const io = streams();
    const original = console.log;
    const service = await serveStdio({ connect: async (transport: Transport) => transport.start({ payload() {}, error() {}, closed() {} }), summary }, { ...io, banner: false });
    expect(console.log).not.toBe(original);
    console.log("stray");
    expect(io.err()).toBe("stray\n");
    await service.close();
    expect(console.log).toBe(original);
  });

  it("prints the banner by default only when stdin is a terminal", async () => {
    const piped = streams();
    const quiet = await serveStdio({ connect: async (transport: Transport) => transport.start({ payload() {}, error() {}, closed() {} }), summary }, { ...piped, redirectConsole: false });
    expect(piped.err()).toBe("");
    await quiet.close();
    const tty = streams();
    Object.assign(tty.stdin, { isTTY: true });
    const loud = await serveStdio({ connect: async (transport: Transport) => transport.start({ payload() {}, error() {}, closed() {} }), summary }, { ...tty, redirectConsole: false });
    expect(tty.err()).toContain("demo 0.1.0 · MCP 2025-11-25 · stdio");
    await loud.close();
  });

  it("hands its stderr logger to a server without one, and traces the wire redacted when asked", async () => {
    const io = streams();
    let given: Logger | undefined;
    const server = {
      async connect(transport: Transport) {
        const peer = createPeer(transport);
        peer.handle("echo", (params) => params ?? null);
        await peer.start();
        return peer;
      },
      summary,
      fallbackLogger: (logger: Logger) => (given = logger),
    };
    const service = await serveStdio(server, { ...io, redirectConsole: false, trace: true });
    given?.error("a handler threw", new Error("boom"));
    expect(io.err()).toMatch(/^\[mcp\] error: a handler threw\n {2}Error: boom/);
    const answered = new Promise((resolve) => io.stdout.once("data", resolve));
    io.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: { token: "t0k3n", text: "hi" } })}\n`);
    await answered;
    expect(io.err()).toContain('[mcp] debug: stdio <- {"jsonrpc":"2.0","id":1,"method":"echo","params":{"token":"[redacted]","text":"hi"}}');
    expect(io.err()).toContain('[mcp] debug: stdio -> {"jsonrpc":"2.0","id":1,"result":{"token":"[redacted]","text":"hi"}}');
    expect(io.err()).not.toContain("t0k3n");
    await service.close();
  });

  it("logs nothing with logger: false", async () => {
    const io = streams();
    let given: Logger | undefined;
    const service = await serveStdio({ connect: async (transport: Transport) => transport.start({ payload() {}, error() {}, closed() {} }), summary, fallbackLogger: (l: Logger) => (given = l) }, { ...io, logger: false, trace: true });
    expect(given).toBeUndefined();
    await service.close();
    expect(io.err()).toBe("");
  });

  it("rethrows a failed connect, closes the transport and restores the console", async () => {
    const io = streams();
    const original = console.log;
    const failure = new Error("cannot connect");
    await expect(serveStdio({ connect: () => Promise.reject(failure), summary }, io)).rejects.toBe(failure);
    expect(console.log).toBe(original);
    expect(io.err()).toBe("");
  });

  it("refuses something that is not a server", async () => {
    await expect(serveStdio({} as never)).rejects.toThrow(/connect\(transport\) and summary\(\)/);
  });
});
