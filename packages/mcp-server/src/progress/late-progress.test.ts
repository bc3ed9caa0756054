import { describe, expect, it } from "vitest";
import type { JsonRpcPayload } from "@proto/jsonrpc";
import { createServer } from "../server";
import type { RequestContext } from "../context";
import { connectRaw, initializeRaw } from "../test-helpers";

/**
 * Progress refers to a request in progress (2025-11-25 and 2026-07-28 basic/utilities/progress:
 * "MUST only reference tokens that ... are associated with an in-progress operation"), and a
 * 2026-07-28 request's log messages belong to its answer: once the handler has answered, a late
 * `ctx.progress` (both eras) or modern `ctx.log` sends nothing.
 */
const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "debug" };

function lateServer() {
  let after: Promise<void> = Promise.resolve();
  const server = createServer({ name: "late", version: "1" }, { capabilities: { logging: {} } });
  server.tool({ name: "late", inputSchema: { type: "object" } }, async (_args, ctx: RequestContext) => {
    await ctx.progress(1, 3, "inside");
    await ctx.log("info", "inside");
    // the work the handler leaves behind runs once the answer is out
    after = new Promise((resolve) =>
      setImmediate(() => {
        void Promise.all([ctx.progress(2, 3, "after"), ctx.log("info", "after")]).then(() => resolve());
      }),
    );
    return "done";
  });
  return { server, after: () => after };
}

const notes = (received: JsonRpcPayload[], method: string): unknown[] =>
  received.flatMap((p) => (!Array.isArray(p) && "method" in p && !("id" in p) && p.method === method ? [p.params] : []));

/** Lets the memory transport deliver whatever was sent. */
const drain = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe("notifications after the answer", () => {
  it("a 2025-11-25 session: late progress is dropped, the session's log still flows", async () => {
    const { server, after } = lateServer();
    const client = await connectRaw(server);
    await initializeRaw(client);
    await client.call(1, "logging/setLevel", { level: "debug" });
    const answer = await client.call(2, "tools/call", { name: "late", arguments: {}, _meta: { progressToken: "p" } });
    expect(answer).toMatchObject({ result: { content: [{ type: "text", text: "done" }] } });
    await after();
    await drain();
    expect(notes(client.received, "notifications/progress")).toEqual([{ progressToken: "p", progress: 1, total: 3, message: "inside" }]);
    expect(notes(client.received, "notifications/message").map((n) => (n as { data: unknown }).data)).toEqual(["inside", "after"]);
  });

  it("a 2026-07-28 request: neither late progress nor late log is sent", async () => {
    const { server, after } = lateServer();
    const client = await connectRaw(server);
    const answer = await client.call(1, "tools/call", { name: "late", arguments: {}, _meta: { ...META, progressToken: "q" } });
    expect(answer).toMatchObject({ result: { resultType: "complete", content: [{ type: "text", text: "done" }] } });
    await after();
    await drain();
    expect(notes(client.received, "notifications/progress")).toEqual([{ progressToken: "q", progress: 1, total: 3, message: "inside" }]);
    expect(notes(client.received, "notifications/message").map((n) => (n as { data: unknown }).data)).toEqual(["inside"]);
  });
});
