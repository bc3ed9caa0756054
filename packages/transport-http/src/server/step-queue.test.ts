import { describe, expect, it } from "vitest";
import { createMemoryEventStore } from "./event-store";
import type { ConnectionWriter } from "./io";
import { DONE, StepQueue } from "./step-queue";
import { createSseStream } from "./stream";

describe("StepQueue", () => {
  it("runs a step at once while idle and hands back the shared resolved promise", () => {
    const queue = new StepQueue();
    const ran: number[] = [];
    expect(queue.run(() => void ran.push(1))).toBe(DONE);
    expect(ran).toEqual([1]);
    expect(queue.idle).toBe(true);
  });

  it("queues later steps behind one that waits, in order, and is idle again after", async () => {
    const queue = new StepQueue();
    const ran: string[] = [];
    let finish!: () => void;
    const first = queue.run(() => new Promise<void>((resolve) => (finish = () => (ran.push("first"), resolve()))));
    const second = queue.run(() => void ran.push("second"));
    queue.runQuietly(() => {
      throw new Error("ignored");
    });
    const third = queue.run(() => void ran.push("third"));
    expect(ran).toEqual([]);
    expect(queue.idle).toBe(false);
    finish();
    await Promise.all([first, second, third]);
    expect(ran).toEqual(["first", "second", "third"]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(queue.idle).toBe(true);
  });

  it("holds every step behind a closed gate until it opens, after the step given to open", async () => {
    const queue = new StepQueue();
    const ran: string[] = [];
    queue.close();
    const queued = queue.run(() => void ran.push("queued"));
    await Promise.resolve();
    expect(ran).toEqual([]);
    queue.open(Promise.resolve().then(() => void ran.push("head")));
    await queued;
    expect(ran).toEqual(["head", "queued"]);
  });

  it("rejects a step that throws without stopping the ones behind it", async () => {
    const queue = new StepQueue();
    await expect(queue.run(() => Promise.reject(new Error("first failed")))).rejects.toThrow("first failed");
    await expect(queue.run(() => undefined)).resolves.toBeUndefined();
  });
});

describe("a reserved POST stream", () => {
  const settings = { store: createMemoryEventStore(), retryMs: 1000, keepAliveMs: 0, closeAfterMs: 0 };
  function writer(): ConnectionWriter & { text: string } {
    return {
      text: "",
      write(text) {
        this.text += text;
        return undefined;
      },
      end: () => undefined,
      closed: false,
      onClose: () => undefined,
    };
  }

  it("sends the priming event first when its connection arrives after a write", async () => {
    const stream = createSseStream("p.0", settings, { lost: () => undefined, done: () => undefined, fault: () => undefined });
    stream.reserve(true);
    const written = stream.write({ jsonrpc: "2.0", id: 1, result: {} });
    const connection = writer();
    stream.arrive(connection);
    await written;
    expect(connection.text).toMatch(/^id: p\.0:\d+\nretry: 1000\ndata: \n\nid: p\.0:\d+\ndata: \{"jsonrpc":"2\.0","id":1,"result":\{\}\}\n\n$/);
  });

  it("fails the writes queued behind a connection that never arrives once the stream closes", async () => {
    const stream = createSseStream("p.1", { ...settings, store: undefined }, { lost: () => undefined, done: () => undefined, fault: () => undefined });
    stream.reserve(false);
    const written = stream.write({ jsonrpc: "2.0", id: 2, result: {} });
    stream.close();
    await expect(written).rejects.toThrow(/no connection and cannot be resumed/);
  });
});
