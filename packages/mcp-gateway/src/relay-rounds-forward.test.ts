/**
 * `prompts/get` and `resources/read` forwarded to a 2025-11-25 child that samples, behind a
 * 2026-07-28 upstream: the input round ends the upstream request, so the first call to the
 * child is abandoned and must be cancelled on the child (as for `tools/call`), while the
 * retry's request is relayed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import type { RequestContext } from "@proto/mcp-server";
import { createGateway } from "./gateway";
import { inMemory2025, upstream } from "./testing/children";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A child whose prompt `ask` and resource `file:///ask` sample the client; a failed sampling lingers before it fails. */
function asker() {
  const runs: { aborted: boolean }[] = [];
  const server = createServer({ name: "asker", version: "1.0.0" });
  const ask = async (ctx: RequestContext): Promise<string> => {
    const run = { aborted: false };
    runs.push(run);
    ctx.signal.addEventListener("abort", () => (run.aborted = true));
    try {
      const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "q" } }], maxTokens: 5 });
      return `got ${(answer.content as { text?: string }).text}`;
    } catch (error) {
      await sleep(300);
      throw error;
    }
  };
  server.prompt({ name: "ask" }, (_args, ctx) => ask(ctx));
  server.resource({ uri: "file:///ask", name: "ask" }, (_uri, ctx) => ask(ctx));
  return { server, runs };
}

async function hostOf(child: ReturnType<typeof asker>) {
  const gateway = createGateway({ name: "gw", children: { a: { transport: inMemory2025(child.server) } } });
  open.push(gateway);
  const host = await upstream(gateway, {
    protocol: "2026-07-28",
    sampling: { createMessage: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "a" } }) },
  });
  open.push(host);
  return host;
}

describe("prompts/get and resources/read to a 2025-11-25 child behind a 2026-07-28 upstream", () => {
  it("prompts/get: relays the retry's request and cancels the abandoned first run on the child", async () => {
    const child = asker();
    const host = await hostOf(child);
    const result = await host.getPrompt("a__ask");
    expect(JSON.stringify(result.messages)).toContain("got a");
    expect(child.runs).toHaveLength(2);
    expect(child.runs[0]?.aborted).toBe(true);
    expect(child.runs[1]?.aborted).toBe(false);
  });

  it("resources/read: relays the retry's request and cancels the abandoned first run on the child", async () => {
    const child = asker();
    const host = await hostOf(child);
    const result = await host.readResource("file:///ask");
    expect(JSON.stringify(result.contents)).toContain("got a");
    expect(child.runs).toHaveLength(2);
    expect(child.runs[0]?.aborted).toBe(true);
    expect(child.runs[1]?.aborted).toBe(false);
  });
});
