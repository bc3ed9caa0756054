/**
 * For any frames (single or batch; with notifications, cancellations, results JSON cannot carry,
 * handlers that throw; a client that closes, or whose end stops taking writes), every request gets
 * exactly one answer or a documented drop, on every transport: in-memory, stdio (a stream pair, and
 * a real child process), Streamable HTTP (the Web handler and the Node adapter, json, sse and auto)
 * and WebSocket. The Peer's frame completion decides; these runs check that every transport keeps
 * what it decides. Runs are bounded so each transport takes seconds.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "@proto/jsonrpc";
import { answeredUpTo, buildFrames, checkAnswers, DROPS, runPlan, waitFor } from "./model";
import type { BuiltFrame, RunPlan } from "./model";
import type { PostWire, StreamWire } from "./wires";
import { childWire, memoryWire, nodeAdapterWire, stdioWire, webHandlerWire, webSocketWire } from "./wires";

const RUNS = { numRuns: 25, endOnFailure: true } as const;

/** Sends the frames on one connection; closes after frame `closeAt` (once the earlier frames were answered), then checks. */
async function runOnStream(open: () => Promise<StreamWire>, plan: RunPlan): Promise<string[]> {
  const frames = buildFrames(plan);
  const sent = plan.closeAt === undefined ? frames : frames.slice(0, plan.closeAt + 1);
  const wire = await open();
  try {
    for (const [index, frame] of sent.entries()) {
      if (index === plan.closeAt) {
        await waitFor(() => answeredUpTo(frames, index, wire.received), 5_000, 0);
        await wire.send(frame.payload);
        await wire.close();
      } else await wire.send(frame.payload);
    }
    // after a close the last frame may never be answered: wait briefly, long enough to see a second answer
    await waitFor(() => answeredUpTo(sent, sent.length, wire.received), plan.closeAt === undefined ? 5_000 : 50);
    return checkAnswers(sent, plan.closeAt, wire.received);
  } finally {
    await wire.stop();
  }
}

/** POSTs each frame and reads its answers; the POST of frame `closeAt` is aborted at once (the client left). */
async function runOnPosts(wire: PostWire, plan: RunPlan): Promise<string[]> {
  const frames: BuiltFrame[] = buildFrames(plan);
  const sent = plan.closeAt === undefined ? frames : frames.slice(0, plan.closeAt + 1);
  const received: JsonRpcMessage[] = [];
  for (const [index, frame] of sent.entries()) received.push(...(await wire.post(frame.payload, index === plan.closeAt)));
  return checkAnswers(sent, plan.closeAt, received, "aborted");
}

describe("the documented drops are the ones the READMEs document", () => {
  it("names each drop with the sentence of the @proto/jsonrpc README", () => {
    const readme = readFileSync(new URL("../../packages/jsonrpc/README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    for (const sentence of Object.values(DROPS)) expect(readme).toContain(sentence);
    const http = readFileSync(new URL("../../packages/transport-http/README.md", import.meta.url), "utf8").replace(/\s+/g, " ");
    expect(http).toContain("a cancelled request ends its POST with 202 when nothing else was answered");
  });
});

describe("every request gets exactly one answer or a documented drop", () => {
  it("in memory", async () => {
    await fc.assert(fc.asyncProperty(runPlan, (plan) => runOnStream(memoryWire, plan).then(() => undefined)), RUNS);
  });

  it("over stdio (a stream pair): the client ends its input, or its end stops taking writes (EPIPE)", async () => {
    await fc.assert(fc.asyncProperty(runPlan, fc.boolean(), (plan, failWrites) => runOnStream(() => stdioWire(failWrites), plan).then(() => undefined)), RUNS);
  });

  it("over stdio to a real child process: a batch with every kind, then the input ends", async () => {
    const plan: RunPlan = {
      frames: [
        { batch: true, elements: [{ kind: "ok" }, { kind: "slow" }, { kind: "big" }, { kind: "throw" }, { kind: "note" }, { kind: "cancel", pick: 1 }] },
        { batch: false, elements: [{ kind: "slow" }] },
      ],
      closeAt: 1,
    };
    const drops = await runOnStream(childWire, plan);
    // the child finishes what it owes before it exits: only the cancellation may drop an answer
    expect(drops.filter((d) => d !== "cancelled")).toEqual([]);
  });

  it("over WebSocket", async () => {
    await fc.assert(fc.asyncProperty(runPlan, (plan) => runOnStream(webSocketWire, plan).then(() => undefined)), RUNS);
  });

  for (const mode of ["json", "sse", "auto"] as const) {
    it(`over Streamable HTTP, the Web handler answering ${mode}`, async () => {
      const wire = webHandlerWire(mode);
      try {
        await fc.assert(fc.asyncProperty(runPlan, (plan) => runOnPosts(wire, plan).then(() => undefined)), RUNS);
      } finally {
        await wire.stop();
      }
    });

    it(`over Streamable HTTP, the Node adapter answering ${mode}`, async () => {
      const wire = await nodeAdapterWire(mode);
      try {
        await fc.assert(fc.asyncProperty(runPlan, (plan) => runOnPosts(wire, plan).then(() => undefined)), RUNS);
      } finally {
        await wire.stop();
      }
    });
  }
});
