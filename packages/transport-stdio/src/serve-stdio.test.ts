import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { createPeer } from "@proto/jsonrpc";
import type { Transport } from "@proto/jsonrpc";
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
    const service = await serveStdio(server, { ...io, redirectConsole: false });
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
