import { chmod, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createPeer, JsonRpcFaultCode, RequestError } from "@proto/jsonrpc";
import type { Logger, Peer, TransportSink } from "@proto/jsonrpc";
import { fixtureTransport } from "./testing/run-fixture";
import { createStdioClientTransport } from "./stdio-client";
import { isStdioProcessError, StdioFaultCode, StdioProcessError } from "./process-error";
import type { StdioClientTransport } from "./stdio-client";

const open: Peer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((peer) => peer.close()));
});

function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, warn: (message) => void warnings.push(message), error: (message) => void warnings.push(message) };
}

async function connect(transport: StdioClientTransport, logger?: Logger): Promise<Peer> {
  const peer = createPeer(transport, { requestTimeoutMs: 0, ...(logger ? { logger } : {}) });
  open.push(peer);
  await peer.start();
  return peer;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
}

describe("createStdioClientTransport with a real child", () => {
  it("round-trips requests both ways and closes the child by ending its stdin", async () => {
    const transport = fixtureTransport("echo-server.ts");
    const peer = createPeer(transport, { requestTimeoutMs: 0 });
    peer.handle("client/hello", (params) => ({ hello: params }));
    await peer.start();
    expect(transport.pid).toBeTypeOf("number");
    expect(await peer.request("echo", { text: "héllo\nworld ✓" })).toEqual({ text: "héllo\nworld ✓" });
    expect(await peer.request("ask", ["from the server"])).toEqual({ hello: ["from the server"] });
    await peer.close();
    expect(await transport.closed).toBeUndefined();
    // The fixture's transport closed on stdin's end and nothing kept it alive.
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
  });

  it("answers 10,000 pipelined requests, each with its own result", async () => {
    const peer = await connect(fixtureTransport("echo-server.ts"));
    const results = await Promise.all(Array.from({ length: 10_000 }, (_, i) => peer.request("echo", [i, `n${i}`])));
    expect(results).toEqual(Array.from({ length: 10_000 }, (_, i) => [i, `n${i}`]));
  });

  it("rejects every pending request with the exit code and the stderr tail when the child crashes", async () => {
    const transport = fixtureTransport("echo-server.ts");
    const peer = await connect(transport);
    await peer.request("echo", []);
    const sleeping = peer.request("sleep");
    const crashing = peer.request("crash");
    for (const error of [await rejection(crashing), await rejection(sleeping)]) {
      expect(error).toBeInstanceOf(RequestError);
      expect((error as RequestError).code).toBe(JsonRpcFaultCode.Closed);
      const cause = (error as RequestError).cause;
      expect(isStdioProcessError(cause)).toBe(true);
      expect(cause).toMatchObject({ code: StdioFaultCode.ProcessExited, exitCode: 3, signal: null });
      expect((cause as StdioProcessError).stderrTail).toEqual(["ready", "starting the crash", "something went badly wrong"]);
      expect((cause as Error).message).toContain("exited with code 3");
      expect((cause as Error).message).toContain("something went badly wrong");
    }
    expect(await peer.closed).toBeInstanceOf(StdioProcessError);
    expect(transport.exitStatus).toEqual({ code: 3, signal: null });
  });

  it("reports the signal of a child that was killed", async () => {
    const peer = await connect(fixtureTransport("echo-server.ts"));
    const error = await rejection(peer.request("signal"));
    expect((error as RequestError).cause).toMatchObject({ code: StdioFaultCode.ProcessExited, exitCode: null, signal: "SIGKILL" });
    expect(((error as RequestError).cause as Error).message).toContain("was killed by SIGKILL");
  });

  it("keeps the session working when the child prints garbage and invalid UTF-8 between frames", async () => {
    const logger = recordingLogger();
    const peer = await connect(fixtureTransport("echo-server.ts"), logger);
    expect(await peer.request("garbage")).toBe("after garbage");
    expect(await peer.request("echo", ["still here"])).toEqual(["still here"]);
    expect(logger.warnings.filter((warning) => warning.startsWith(JsonRpcFaultCode.BadFrame)).length).toBeGreaterThanOrEqual(3);
  });

  it("drops 100 MB without a newline from the child, reports it once, and goes on", async () => {
    const logger = recordingLogger();
    const transport = fixtureTransport("echo-server.ts", [], { maxLineBytes: 1024 * 1024 });
    const peer = await connect(transport, logger);
    expect(await peer.request("flood", [100])).toBe("after flood");
    expect(logger.warnings.filter((warning) => warning.startsWith(JsonRpcFaultCode.Oversized))).toHaveLength(1);
    expect(transport.bufferedBytes).toBe(0);
    expect(await peer.request("echo", [1])).toEqual([1]);
  });

  it("gives the child only the safe environment plus what was asked", async () => {
    process.env.PROTO_TEST_SECRET = "do not leak";
    try {
      const peer = await connect(fixtureTransport("echo-server.ts", [], { env: { EXTRA_VAR: "yes" } }));
      const names = (await peer.request("env")) as string[];
      expect(names).toContain("EXTRA_VAR");
      expect(names).not.toContain("PROTO_TEST_SECRET");
      const all = await connect(fixtureTransport("echo-server.ts", [], { inheritEnv: true }));
      expect(await all.request("env")).toContain("PROTO_TEST_SECRET");
    } finally {
      delete process.env.PROTO_TEST_SECRET;
    }
  });

  it("escalates close to SIGKILL for a child that ignores stdin's end and SIGTERM", async () => {
    const transport = fixtureTransport("echo-server.ts", ["--ignore-term", "--linger"], { exitGraceMs: 50, killGraceMs: 50 });
    const peer = await connect(transport);
    await peer.request("echo", []);
    await peer.close();
    expect(transport.exitStatus).toEqual({ code: null, signal: "SIGKILL" });
    expect(transport.stderrTail()).toContain("ignoring SIGTERM");
  });

  it("sends SIGTERM to a child that lingers after stdin's end", async () => {
    const transport = fixtureTransport("echo-server.ts", ["--linger"], { exitGraceMs: 50, killGraceMs: 60_000 });
    const peer = await connect(transport);
    await peer.request("echo", []);
    await peer.close();
    expect(transport.exitStatus).toEqual({ code: null, signal: "SIGTERM" });
  });

  it("rejects sends after the child died with an error, never an unhandled EPIPE", async () => {
    const transport = fixtureTransport("echo-server.ts");
    const closed: (Error | undefined)[] = [];
    const sink: TransportSink = { payload() {}, error() {}, closed: (reason) => void closed.push(reason) };
    await transport.start(sink);
    await transport.send({ jsonrpc: "2.0", id: 1, method: "crash" });
    await transport.closed;
    await expect(transport.send({ jsonrpc: "2.0", method: "late" })).rejects.toMatchObject({ code: JsonRpcFaultCode.Closed });
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ code: StdioFaultCode.ProcessExited, exitCode: 3 });
  });

  it("exposes stderr as a stream with stderr: pipe, and keeps the tail", async () => {
    const transport = fixtureTransport("echo-server.ts", [], { stderr: "pipe" });
    const sink: TransportSink = { payload() {}, error() {}, closed() {} };
    await transport.start(sink);
    let text = "";
    await new Promise<void>((resolve) =>
      transport.stderr?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes("ready\n")) resolve();
      }),
    );
    expect(transport.stderrTail()).toEqual(["ready"]);
    await transport.close();
    expect(transport.exitStatus).toEqual({ code: 0, signal: null });
  });
});

describe("createStdioClientTransport spawn failures", () => {
  it("rejects start() with SPAWN_FAILED and ENOENT for a missing command", async () => {
    const transport = createStdioClientTransport({ command: "proto-no-such-command-xyz" });
    const closed: (Error | undefined)[] = [];
    const error = await rejection(transport.start({ payload() {}, error() {}, closed: (reason) => void closed.push(reason) }));
    expect(error).toBeInstanceOf(StdioProcessError);
    expect(error).toMatchObject({ code: StdioFaultCode.SpawnFailed, errno: "ENOENT" });
    expect((error as Error).message).toContain("not found");
    expect(closed).toEqual([error]);
    expect(await transport.closed).toBe(error);
    await transport.close();
  });

  it("rejects a Peer's start() with EACCES for a file that is not executable", async () => {
    const dir = await mkdtemp(join(tmpdir(), "proto-stdio-"));
    const file = join(dir, "server.sh");
    await writeFile(file, "#!/bin/sh\necho hi\n");
    await chmod(file, 0o644);
    const peer = createPeer(createStdioClientTransport({ command: file }));
    const error = await rejection(peer.start());
    expect(error).toMatchObject({ code: StdioFaultCode.SpawnFailed, errno: "EACCES" });
    expect(await peer.closed).toBe(error);
  });

  it("refuses bad options with a TypeError that says what is expected", () => {
    expect(() => createStdioClientTransport({ command: "" })).toThrow(/command/);
    expect(() => createStdioClientTransport({ command: "x", stderr: "file" as never })).toThrow(/inherit/);
    expect(() => createStdioClientTransport({ command: "x", exitGraceMs: -1 })).toThrow(/exitGraceMs/);
    expect(() => createStdioClientTransport({ command: "x", stderrTailLines: 1.5 })).toThrow(/stderrTailLines/);
    expect(() => createStdioClientTransport({ command: "x", maxLineBytes: 0 })).toThrow(/maxLineBytes/);
    expect(() => createStdioClientTransport({ command: "x", limits: { maxDepth: 0 } })).toThrow(/maxDepth/);
    expect(() => createStdioClientTransport({ command: "x", args: "--flag" as never })).toThrow(/args/);
  });

  it("names its server by the whole command line (serverKey), before and without a start", () => {
    const long = "x".repeat(300);
    expect(createStdioClientTransport({ command: "node", args: ["server.js", "--port", "0"] }).serverKey).toBe("node server.js --port 0");
    expect(createStdioClientTransport({ command: "uvx" }).serverKey).toBe("uvx");
    expect(createStdioClientTransport({ command: "node", args: [long] }).serverKey).toBe(`node ${long}`);
  });

  it("refuses a second start() and sends before start()", async () => {
    const transport = fixtureTransport("echo-server.ts");
    await expect(transport.send({ jsonrpc: "2.0", method: "m" })).rejects.toThrow(TypeError);
    await transport.start({ payload() {}, error() {}, closed() {} });
    await expect(transport.start({ payload() {}, error() {}, closed() {} })).rejects.toThrow(TypeError);
    await transport.close();
  });
});
