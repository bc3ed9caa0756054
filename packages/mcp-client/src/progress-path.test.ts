/**
 * The requester's slow path (a call with `onProgress`, or a total cap shorter than its timeout):
 * the peer times the request and is told to give it up through its track handle. Timeouts with
 * fake timers (only `setTimeout` / `clearTimeout`, so the event loop keeps turning).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { RequestError, type JsonRpcParams } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";
import { until } from "./fixtures/until";

const open: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(open.splice(0).map((c) => c.close()));
});

type Params = { [key: string]: unknown };

/** A server whose `slow` tool sends one progress per `step()` and answers after `steps` of them, on `finish()`. */
async function setup(clientOptions: { maxTotalTimeoutMs?: number } = {}) {
  const gates: (() => void)[] = [];
  const step = (): void => gates.shift()?.();
  const server = await createScriptedServer({
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "tools/call": async (params, context) => {
        const { steps } = (params as { arguments: { steps: number } }).arguments;
        const token = (params as { _meta?: { progressToken?: string } })._meta?.progressToken;
        for (let i = 1; i <= steps + 1; i++) {
          await new Promise<void>((resolve) => gates.push(resolve));
          if (i <= steps && token !== undefined) await context.notify("notifications/progress", { progressToken: token, progress: i, total: steps });
        }
        return { content: [{ type: "text", text: "done" }] };
      },
    },
  });
  const client = createClient({ info: { name: "t", version: "1" }, ...clientOptions });
  open.push(client);
  await client.connect(server.transport);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  return { client, server, step, waiting: () => gates.length };
}

const cancels = (server: ScriptedServer): Params[] => server.notifications.filter((n) => n.method === "notifications/cancelled").map((n) => n.params as Params);
const callId = (server: ScriptedServer): unknown => server.received.filter((r) => r.method === "tools/call").length;

describe("calls with onProgress", () => {
  it("progress restarts the timeout: a call outliving it succeeds, its progress delivered in order, no timer left", async () => {
    const { client, step, waiting } = await setup();
    const before = vi.getTimerCount();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 4 }, { timeoutMs: 1000, onProgress: (p) => seen.push(p.progress) });
    for (let i = 1; i <= 4; i++) {
      await until(() => waiting() === 1, "the tool to wait");
      await vi.advanceTimersByTimeAsync(900);
      step();
      await until(() => seen.length === i, `progress ${i}`);
    }
    await until(() => waiting() === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(900);
    step();
    expect((await call).content).toEqual([{ type: "text", text: "done" }]);
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(vi.getTimerCount()).toBe(before);
  });

  it("without progress the timeout rejects TIMEOUT and the server is sent notifications/cancelled", async () => {
    const { client, server, waiting } = await setup();
    const call = client.callTool("slow", { steps: 1 }, { timeoutMs: 1000, onProgress: () => {} }).catch((e: unknown) => e);
    await until(() => waiting() === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(999);
    expect(cancels(server)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ code: "TIMEOUT", method: "tools/call" });
    expect((error as Error).message).toMatch(/no response or progress within 1000 ms/);
    await until(() => cancels(server).length === 1, "the cancellation");
    expect(cancels(server)[0]?.requestId).toBeDefined();
  });

  it("resetTimeoutOnProgress: false: progress does not extend the timeout", async () => {
    const { client, server, step, waiting } = await setup();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 2 }, { timeoutMs: 1000, resetTimeoutOnProgress: false, onProgress: (p) => seen.push(p.progress) }).catch((e: unknown) => e);
    await until(() => waiting() === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(900);
    step();
    await until(() => seen.length === 1, "progress 1");
    await vi.advanceTimersByTimeAsync(100);
    expect(await call).toMatchObject({ code: "TIMEOUT" });
    await until(() => cancels(server).length === 1, "the cancellation");
  });

  it("maxTotalTimeoutMs ends the call while progress flows; the server is told why", async () => {
    const { client, server, step, waiting } = await setup();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 5 }, { timeoutMs: 1000, maxTotalTimeoutMs: 2000, onProgress: (p) => seen.push(p.progress) }).catch((e: unknown) => e);
    for (let i = 1; i <= 2; i++) {
      await until(() => waiting() === 1, "the tool to wait");
      await vi.advanceTimersByTimeAsync(900);
      step();
      await until(() => seen.length === i, `progress ${i}`);
    }
    await vi.advanceTimersByTimeAsync(199);
    expect(cancels(server)).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toMatchObject({ code: "TIMEOUT", method: "tools/call" });
    expect((error as Error).message).toMatch(/exceeded maxTotalTimeoutMs \(2000 ms\)/);
    await until(() => cancels(server).length === 1, "the cancellation");
    expect(cancels(server)[0]).toMatchObject({ requestId: expect.anything(), reason: expect.stringMatching(/maxTotalTimeoutMs/) });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("the client's maxTotalTimeoutMs applies too, with timeoutMs 0 (none)", async () => {
    const { client, step, waiting } = await setup({ maxTotalTimeoutMs: 1500 });
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 3 }, { timeoutMs: 0, onProgress: (p) => seen.push(p.progress) }).catch((e: unknown) => e);
    await until(() => waiting() === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(1000);
    step();
    await until(() => seen.length === 1, "progress 1");
    await vi.advanceTimersByTimeAsync(500);
    expect(await call).toMatchObject({ code: "TIMEOUT", message: expect.stringMatching(/maxTotalTimeoutMs \(1500 ms\)/) });
  });

  it("aborting the signal rejects ABORTED, cancels the request at the server, and no progress is delivered after", async () => {
    const { client, server, step, waiting } = await setup();
    const aborter = new AbortController();
    const seen: number[] = [];
    const call = client.callTool("slow", { steps: 3 }, { signal: aborter.signal, onProgress: (p) => seen.push(p.progress) }).catch((e: unknown) => e);
    await until(() => waiting() === 1, "the tool to wait");
    step();
    await until(() => seen.length === 1, "progress 1");
    aborter.abort(new Error("user left"));
    expect(await call).toMatchObject({ code: "ABORTED", method: "tools/call" });
    await until(() => cancels(server).length === 1, "the cancellation");
    expect(cancels(server)[0]).toEqual({ requestId: expect.anything(), reason: "user left" });
    await until(() => waiting() === 1, "the tool to wait");
    step();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([1]);
    expect(callId(server)).toBe(1);
  });

  it("a total cap shorter than the timeout, without progress, ends the call with the cap's error", async () => {
    const { client, server, waiting } = await setup();
    const call = client.callTool("slow", { steps: 0 }, { timeoutMs: 5000, maxTotalTimeoutMs: 300 }).catch((e: unknown) => e);
    await until(() => waiting() === 1, "the tool to wait");
    await vi.advanceTimersByTimeAsync(300);
    expect(await call).toMatchObject({ code: "TIMEOUT", message: expect.stringMatching(/maxTotalTimeoutMs \(300 ms\)/) });
    await until(() => cancels(server).length === 1, "the cancellation");
    const sent = server.received.find((r) => r.method === "tools/call")?.params as JsonRpcParams & { _meta?: Params };
    expect(sent._meta?.progressToken).toBeUndefined();
  });
});
