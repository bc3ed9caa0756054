import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createPeer, JsonRpcErrorCode, JsonRpcFaultCode } from "@proto/jsonrpc";
import type { JsonRpcPayload, TransportError, TransportSink } from "@proto/jsonrpc";
import { createStdioServerTransport } from "./stdio-server";

interface Recorded {
  readonly sink: TransportSink;
  readonly payloads: JsonRpcPayload[];
  readonly errors: TransportError[];
  readonly closed: (Error | undefined)[];
}

function record(): Recorded {
  const payloads: JsonRpcPayload[] = [];
  const errors: TransportError[] = [];
  const closed: (Error | undefined)[] = [];
  return { payloads, errors, closed, sink: { payload: (p) => void payloads.push(p), error: (e) => void errors.push(e), closed: (r) => void closed.push(r) } };
}

/** Collects what is written to a stream, line by line; `until(n)` waits for n lines. */
function lines(stream: PassThrough): (() => unknown[]) & { until(count: number): Promise<unknown[]> } {
  let text = "";
  const all = (): unknown[] => text.split("\n").filter((line) => line.length > 0).map((line) => JSON.parse(line) as unknown);
  const waiters: (() => void)[] = [];
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString();
    for (const wake of waiters.splice(0)) wake();
  });
  const until = async (count: number): Promise<unknown[]> => {
    while (all().length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return all();
  };
  return Object.assign(all, { until });
}

const nextTick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("createStdioServerTransport", () => {
  it("delivers frames from stdin and writes replies as lines on stdout", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written = lines(stdout);
    const transport = createStdioServerTransport({ stdin, stdout });
    const peer = createPeer(transport);
    peer.handle("add", (params) => (params as number[]).reduce((a, b) => a + b, 0));
    await peer.start();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"add","params":[1,2]}\r\n{"jsonrpc":"2.0","id":2,"meth');
    stdin.write('od":"add","params":[3]}\nnot json\n[{"jsonrpc":"2.0","id":3,"method":"add","params":[4]},{"bad":1}]\n');
    await peer.notify("note", { n: 1 });
    expect(await written.until(5)).toEqual(
      expect.arrayContaining([
        { jsonrpc: "2.0", id: 1, result: 3 },
        { jsonrpc: "2.0", id: 2, result: 3 },
        { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: JsonRpcErrorCode.ParseError }) },
        [{ jsonrpc: "2.0", id: 3, result: 4 }, expect.objectContaining({ error: expect.objectContaining({ code: JsonRpcErrorCode.InvalidRequest }) })],
        { jsonrpc: "2.0", method: "note", params: { n: 1 } },
      ]),
    );
    await peer.close();
  });

  it("closes when stdin ends with nothing outstanding, exactly once", async () => {
    const stdin = new PassThrough();
    const transport = createStdioServerTransport({ stdin, stdout: new PassThrough() });
    const recorded = record();
    await transport.start(recorded.sink);
    stdin.end();
    expect(await transport.closed).toBeUndefined();
    await transport.close();
    await transport.close(new Error("again"));
    expect(recorded.closed).toEqual([undefined]);
    await expect(transport.send({ jsonrpc: "2.0", method: "late" })).rejects.toMatchObject({ code: JsonRpcFaultCode.Closed });
  });

  it("closes when stdin is destroyed without ending", async () => {
    const stdin = new PassThrough();
    const transport = createStdioServerTransport({ stdin, stdout: new PassThrough() });
    await transport.start(record().sink);
    stdin.destroy();
    expect(await transport.closed).toBeUndefined();
  });

  it("answers requests received before stdin ended, then closes (echo '...' | server)", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written = lines(stdout);
    const transport = createStdioServerTransport({ stdin, stdout });
    const peer = createPeer(transport);
    peer.handle("slow", () => new Promise((resolve) => setTimeout(() => resolve("done"), 30)));
    await peer.start();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"slow"}\n{"jsonrpc":"2.0","id":"1","method":"slow"}');
    expect(await transport.closed).toBeUndefined();
    expect(written()).toEqual([
      { jsonrpc: "2.0", id: 1, result: "done" },
      { jsonrpc: "2.0", id: "1", result: "done" },
    ]);
  });

  it("answers an unserialisable result -32603, and closes once every frame was finished (no grace wait)", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written = lines(stdout);
    const transport = createStdioServerTransport({ stdin, stdout, endGraceMs: 600_000 });
    const peer = createPeer(transport, { cancellation: { method: "cancel", params: (id) => ({ id }), requestId: (p) => (p as { id: number }).id } });
    peer.handle("big", async () => ({ n: 10n }));
    peer.handle("hang", (_params, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve("late"))));
    await peer.start();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"big"}\n{"jsonrpc":"2.0","id":2,"method":"hang"}\n{"jsonrpc":"2.0","method":"cancel","params":{"id":2}}\nnot json\n');
    expect(await transport.closed).toBeUndefined();
    expect(written()).toEqual([
      { jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: JsonRpcErrorCode.ParseError }) },
      { jsonrpc: "2.0", id: 1, error: { code: JsonRpcErrorCode.InternalError, message: "Internal error" } },
    ]);
  });

  it("leaves no listener behind on stdin or stdout after 1,000 open/close cycles", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    stdout.resume(); // a host that reads what is written
    const events = ["data", "end", "close", "error", "drain", "finish"];
    const counts = (): number[] => events.flatMap((event) => [stdin.listenerCount(event), stdout.listenerCount(event)]);
    const cycle = async (): Promise<void> => {
      const transport = createStdioServerTransport({ stdin, stdout });
      await transport.start(record().sink);
      await transport.send({ jsonrpc: "2.0", method: "n" });
      await transport.close();
    };
    await cycle(); // the first close adds the one shared error guard per stream
    const before = counts();
    for (let i = 0; i < 1_000; i++) await cycle();
    expect(counts()).toEqual(before);
  });

  it("closes after endGraceMs when a request is never answered", async () => {
    const stdin = new PassThrough();
    const transport = createStdioServerTransport({ stdin, stdout: new PassThrough(), endGraceMs: 10 });
    const peer = createPeer(transport);
    peer.handle("hang", () => new Promise(() => {}));
    await peer.start();
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"hang"}\n');
    expect(await transport.closed).toBeUndefined();
  });

  it("keeps at most maxLineBytes buffered while 100 MB without a newline arrive, then goes on", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written = lines(stdout);
    const maxLineBytes = 1024 * 1024;
    const transport = createStdioServerTransport({ stdin, stdout, maxLineBytes });
    const recorded = record();
    await transport.start({ ...recorded.sink, payload: (payload, exchange) => void exchange.reply({ jsonrpc: "2.0", id: (payload as { id: number }).id, result: "ok" }) });
    const chunk = new Uint8Array(64 * 1024).fill(0x78);
    let most = 0;
    for (let sent = 0; sent < 100 * 1024 * 1024; sent += chunk.length) {
      stdin.write(chunk);
      await nextTick();
      most = Math.max(most, transport.bufferedBytes);
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(maxLineBytes);
    stdin.write('\n{"jsonrpc":"2.0","id":9,"method":"m"}\n');
    await nextTick();
    // refused as the codec refuses a frame too large to read (not an object: id null), and reported
    expect(recorded.errors.map((error) => error.code)).toEqual([JsonRpcFaultCode.BadFrame, JsonRpcFaultCode.Oversized]);
    expect(written()).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: the message exceeds maxMessageBytes (${maxLineBytes} bytes)` } },
      { jsonrpc: "2.0", id: 9, result: "ok" },
    ]);
    expect(transport.bufferedBytes).toBe(0);
    await transport.close();
  });

  it("writes frames whole and in order, coalesced, and never writes while the stream needs drain", async () => {
    let text = "";
    let writes = 0;
    let writesWhileFull = 0;
    const stdout = new Writable({
      highWaterMark: 256,
      write(chunk: Buffer, _encoding, callback) {
        text += chunk.toString();
        setImmediate(callback);
      },
    });
    const write = stdout.write.bind(stdout);
    stdout.write = ((...args: Parameters<typeof stdout.write>) => {
      writes++;
      if (stdout.writableNeedDrain) writesWhileFull++;
      return write(...args);
    }) as typeof stdout.write;
    const transport = createStdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start(record().sink);
    const frames = Array.from({ length: 500 }, (_, i) => ({ jsonrpc: "2.0" as const, method: "n", params: { i, pad: "p".repeat(i % 50) } }));
    const sent: Promise<void>[] = [];
    for (const [i, frame] of frames.entries()) {
      sent.push(transport.send(frame));
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(sent);
    expect(text.split("\n").slice(0, -1).map((line) => JSON.parse(line) as unknown)).toEqual(frames);
    expect(writes).toBeLessThan(frames.length);
    expect(writesWhileFull).toBe(0);
    await transport.close();
  });

  it("closes with WRITE_FAILED when stdout breaks (EPIPE), without an unhandled error", async () => {
    const stdout = new Writable({
      write(_chunk, _encoding, callback) {
        callback(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const transport = createStdioServerTransport({ stdin: new PassThrough(), stdout });
    const recorded = record();
    await transport.start(recorded.sink);
    await expect(transport.send({ jsonrpc: "2.0", method: "m" })).rejects.toMatchObject({ code: JsonRpcFaultCode.WriteFailed });
    const reason = await transport.closed;
    expect(reason).toMatchObject({ code: JsonRpcFaultCode.WriteFailed });
    expect(reason?.message).toContain("EPIPE");
    expect(recorded.closed).toEqual([reason]);
  });

  it("rejects a payload JSON cannot carry, and goes on", async () => {
    const stdout = new PassThrough();
    const written = lines(stdout);
    const transport = createStdioServerTransport({ stdin: new PassThrough(), stdout });
    await transport.start(record().sink);
    await expect(transport.send({ jsonrpc: "2.0", method: "m", params: { big: 1n } })).rejects.toThrow(TypeError);
    await transport.send({ jsonrpc: "2.0", method: "ok" });
    expect(written()).toEqual([{ jsonrpc: "2.0", method: "ok" }]);
    await transport.close();
  });

  it("refuses a second start() and bad options", async () => {
    const transport = createStdioServerTransport({ stdin: new PassThrough(), stdout: new PassThrough() });
    await transport.start(record().sink);
    await expect(transport.start(record().sink)).rejects.toThrow(TypeError);
    await transport.close();
    expect(() => createStdioServerTransport({ endGraceMs: -1 })).toThrow(/endGraceMs/);
    expect(() => createStdioServerTransport({ maxLineBytes: 0 })).toThrow(/maxLineBytes/);
    expect(() => createStdioServerTransport({ limits: { maxBatch: -1 } })).toThrow(/maxBatch/);
  });
});
