import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FaultCode } from "@proto/jsonrpc";
import { createWriteQueue } from "./write-queue";

/**
 * A stream that records each `write` call; `failNext` makes the next write's callback fail;
 * `slow` calls back on a later turn, `held` only when `release()` is called.
 */
function recorder(options: { highWaterMark?: number; slow?: boolean; held?: boolean } = {}) {
  const writes: string[] = [];
  const held: (() => void)[] = [];
  let fail: Error | undefined;
  let writesWhileFull = 0;
  const stream = new Writable({
    highWaterMark: options.highWaterMark ?? 16 * 1024,
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      const error = fail;
      fail = undefined;
      if (options.held === true) held.push(() => callback(error));
      else if (options.slow === true) setImmediate(() => callback(error));
      else callback(error);
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: string, ...rest: never[]) => {
    if (stream.writableNeedDrain) writesWhileFull++;
    writes.push(chunk);
    return write(chunk, ...rest);
  }) as typeof stream.write;
  return {
    stream,
    writes,
    failNext: (error: Error) => void (fail = error),
    release: () => {
      for (const callback of held.splice(0)) callback();
    },
    get writesWhileFull() {
      return writesWhileFull;
    },
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("createWriteQueue", () => {
  it("joins the lines of one tick into one write, in order; later ticks write again", async () => {
    const out = recorder();
    const queue = createWriteQueue(out.stream, "stdout");
    const first = ["a\n", "b\n", "c\n"].map((line) => queue.write(line));
    await Promise.all(first);
    await queue.write("d\n");
    expect(out.writes).toEqual(["a\nb\nc\n", "d\n"]);
  });

  it("settles the lines of one write together: one promise per tick, not per line", async () => {
    const out = recorder({ held: true });
    const queue = createWriteQueue(out.stream, "stdout");
    const first = queue.write("a\n");
    expect(queue.write("b\n")).toBe(first);
    let settled = false;
    void first.then(() => (settled = true));
    await turn();
    const second = queue.write("c\n");
    expect(second).not.toBe(first);
    await turn();
    expect(settled).toBe(false); // taken by the stream only once it calls back
    out.release();
    await first;
    out.release();
    await second;
    expect(out.writes).toEqual(["a\nb\n", "c\n"]);
  });

  it("counts as waiting, and rejects on abort, the lines of a batch that backpressure cut short", async () => {
    const out = recorder({ highWaterMark: 4, held: true });
    const queue = createWriteQueue(out.stream, "stdout");
    const line = `${"y".repeat(700 * 1024)}\n`;
    const sent = [queue.write(line), queue.write(line), queue.write(line)];
    await turn();
    expect(out.writes.length).toBe(1); // two lines (the million-unit cap), and the stream is full
    expect(queue.waiting).toBe(1);
    const reason = new Error("the child exited");
    queue.abort(reason);
    expect(queue.waiting).toBe(0);
    out.release();
    // The batch settles once, for all its lines: those handed to the stream reject with the rest.
    expect(await Promise.allSettled(sent)).toEqual(sent.map(() => ({ status: "rejected", reason })));
    await turn();
    expect(out.writes.length).toBe(1);
  });

  it("writes nothing while the stream needs drain, then the waiting lines in order", async () => {
    const out = recorder({ highWaterMark: 8, slow: true });
    const queue = createWriteQueue(out.stream, "stdout");
    const sent: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) {
      sent.push(queue.write(`line ${i}\n`));
      if (i % 10 === 9) await turn();
    }
    await Promise.all(sent);
    expect(out.writesWhileFull).toBe(0);
    expect(out.writes.length).toBeGreaterThan(1);
    expect(out.writes.join("")).toBe(Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join(""));
  });

  it("rejects every line of a failed write with WRITE_FAILED naming the stream", async () => {
    const out = recorder();
    out.stream.on("error", () => {}); // the stream's owner handles its error event
    const queue = createWriteQueue(out.stream, "the server's stdin");
    out.failNext(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
    const failed = [queue.write("x\n"), queue.write("y\n")].map((p) => p.then(() => "ok", (error: unknown) => error));
    const results = await Promise.all(failed);
    for (const error of results) {
      expect(error).toMatchObject({ code: FaultCode.WriteFailed });
      expect((error as Error).message).toContain("the server's stdin");
      expect((error as Error).message).toContain("EPIPE");
    }
  });

  it("splits a backlog over a million UTF-16 units into several writes, each line whole", async () => {
    const out = recorder();
    const queue = createWriteQueue(out.stream, "stdout");
    const line = `${"z".repeat(300 * 1024)}\n`;
    await Promise.all(Array.from({ length: 8 }, () => queue.write(line)));
    expect(out.writes.length).toBeGreaterThan(1);
    for (const chunk of out.writes) expect(chunk.length % line.length).toBe(0);
    expect(out.writes.join("").length).toBe(8 * line.length);
  });

  it("flush hands the waiting lines over at once and in order, even past the high-water mark; later writes reject", async () => {
    const out = recorder({ highWaterMark: 4, held: true });
    const queue = createWriteQueue(out.stream, "stdout");
    const sent = [queue.write("first line\n")];
    await turn(); // the first write fills the stream: what follows waits for drain
    sent.push(queue.write("second\n"), queue.write("third\n"));
    await turn();
    expect(queue.waiting).toBe(2);
    queue.flush();
    expect(queue.waiting).toBe(0);
    out.release();
    await turn();
    out.release();
    await Promise.all(sent);
    expect(out.writes.join("")).toBe("first line\nsecond\nthird\n");
    await expect(queue.write("late\n")).rejects.toMatchObject({ code: FaultCode.Closed });
  });

  it("abort rejects the waiting lines with its reason and writes nothing more", async () => {
    const out = recorder({ highWaterMark: 4, held: true });
    const queue = createWriteQueue(out.stream, "stdout");
    const first = queue.write("first line\n");
    await turn();
    const waiting = queue.write("never\n");
    await turn();
    expect(queue.waiting).toBe(1);
    const reason = new Error("the child exited");
    queue.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    out.release();
    await first;
    await turn();
    await expect(queue.write("late\n")).rejects.toBe(reason);
    expect(out.writes).toEqual(["first line\n"]);
  });

  it("rejects a write to a destroyed stream with WRITE_FAILED", async () => {
    const out = recorder();
    const queue = createWriteQueue(out.stream, "stdout");
    out.stream.destroy();
    await expect(queue.write("x\n")).rejects.toMatchObject({ code: FaultCode.WriteFailed, message: expect.stringContaining("closed") });
  });
});
