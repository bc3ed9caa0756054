import type { Progress } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectRawClient } from "../client-requests/test-support";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

function serverWithWork(warnings: string[] = []) {
  const s = createServer({ name: "prog", version: "1" }, { logger: { warn: (m) => warnings.push(m), error() {} } });
  s.tool({ name: "work", inputSchema: { type: "object" } }, async (_args, ctx) => {
    await ctx.progress(1, 3, "started");
    await ctx.progress(1); // not increasing: dropped
    await ctx.progress(0.5); // not increasing: dropped
    await ctx.progress(2, 3);
    await ctx.progress(3, 3, "done");
    return "ok";
  });
  return s;
}

describe("progress", () => {
  it("sends increasing notifications/progress with the request's token (official SDK client)", async () => {
    const warnings: string[] = [];
    const { client } = await connectSdkClient(serverWithWork(warnings));
    const seen: Progress[] = [];
    const result = await client.callTool({ name: "work", arguments: {} }, undefined, { onprogress: (p) => seen.push(p) });
    expect(result.content).toEqual([{ type: "text", text: "ok" }]);
    expect(seen).toEqual([{ progress: 1, total: 3, message: "started" }, { progress: 2, total: 3 }, { progress: 3, total: 3, message: "done" }]);
    expect(warnings.filter((w) => w.includes("must increase"))).toHaveLength(1);
  });

  it("sends nothing without a token", async () => {
    const raw = await connectRawClient(serverWithWork());
    const response = await raw.call(1, "tools/call", { name: "work", arguments: {} });
    expect(response).toMatchObject({ result: { content: [{ type: "text", text: "ok" }] } });
    expect(raw.frames.some((m) => "method" in m && m.method === "notifications/progress")).toBe(false);
  });

  it("uses string and number tokens as given", async () => {
    const raw = await connectRawClient(serverWithWork());
    await raw.call(2, "tools/call", { name: "work", arguments: {}, _meta: { progressToken: "tok-1" } });
    await raw.call(3, "tools/call", { name: "work", arguments: {}, _meta: { progressToken: 7 } });
    const tokens = raw.frames.flatMap((m) => ("method" in m && m.method === "notifications/progress" ? [(m.params as { progressToken: unknown }).progressToken] : []));
    expect(tokens).toEqual(["tok-1", "tok-1", "tok-1", 7, 7, 7]);
  });

  it("refuses a non-finite progress value with a TypeError the tool reports", async () => {
    const s = createServer({ name: "prog", version: "1" });
    s.tool({ name: "bad", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.progress(Number.NaN);
      return "unreachable";
    });
    const { client } = await connectSdkClient(s);
    const result = await client.callTool({ name: "bad", arguments: {} }, undefined, { onprogress: () => {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/finite number/);
  });
});
