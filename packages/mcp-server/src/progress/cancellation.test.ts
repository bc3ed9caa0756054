import { describe, expect, it } from "vitest";
import { connectRawClient } from "../client-requests/test-support";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function slowServer() {
  const started = gate();
  const release = gate();
  const aborted = gate();
  const s = createServer({ name: "cancel", version: "1" });
  s.tool({ name: "slow", inputSchema: { type: "object" } }, async (_args, ctx) => {
    ctx.signal.addEventListener("abort", () => aborted.open(), { once: true });
    started.open();
    await release.opened;
    await ctx.progress(1);
    return "late result";
  });
  return { s, started, release, aborted };
}

describe("cancellation at the MCP level", () => {
  it("aborts the handler's signal and never sends what it returns afterwards", async () => {
    const { s, started, release, aborted } = slowServer();
    const raw = await connectRawClient(s);
    await raw.send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "slow", arguments: {}, _meta: { progressToken: "p" } } });
    await started.opened;
    await raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "user" } });
    await aborted.opened;
    release.open();
    const pong = await raw.call(11, "ping");
    expect(pong).toMatchObject({ result: {} });
    await raw.call(12, "ping");
    expect(raw.frames.some((m) => "id" in m && m.id === 10)).toBe(false);
    expect(raw.frames.some((m) => "method" in m && m.method === "notifications/progress")).toBe(false);
  });

  it("official SDK client: an aborted call rejects, the session goes on", async () => {
    const { s, started, release, aborted } = slowServer();
    const { client } = await connectSdkClient(s);
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal });
    await started.opened;
    controller.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await aborted.opened;
    release.open();
    await expect(client.ping()).resolves.toEqual({});
  });

  it("a cancel racing a result: at most one response per request, and the session stays healthy", async () => {
    const s = createServer({ name: "race", version: "1" });
    let finished = 0;
    s.tool({ name: "quick", inputSchema: { type: "object" } }, async () => {
      await Promise.resolve();
      finished++;
      return "fast";
    });
    const raw = await connectRawClient(s);
    const ids = Array.from({ length: 50 }, (_, i) => 100 + i);
    const sent: Promise<void>[] = [];
    for (const id of ids) {
      sent.push(raw.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "quick", arguments: {} } }));
      if (id % 3 !== 0) sent.push(raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } }));
    }
    await Promise.all(sent);
    // Calls cancelled before their handler started (the first call compiles the schema) never run.
    await Promise.all(ids.filter((id) => id % 3 === 0).map((id) => raw.next((m) => "id" in m && m.id === id)));
    await raw.call("final", "ping");
    await raw.call("final 2", "ping");
    expect(finished).toBeGreaterThanOrEqual(ids.filter((id) => id % 3 === 0).length);
    for (const id of ids) {
      const responses = raw.frames.filter((m) => "id" in m && m.id === id && !("method" in m));
      expect(responses.length).toBeLessThanOrEqual(1);
      if (id % 3 === 0) expect(responses).toHaveLength(1);
      if (responses.length === 1) expect(responses[0]).toMatchObject({ result: { content: [{ text: "fast" }] } });
    }
  });
});
