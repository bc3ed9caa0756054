/**
 * A 2025-11-25 child's request made while several calls to it are in flight over shared
 * children: it goes to the session those calls came from, never to another upstream client.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import { createGateway } from "./gateway";
import { inMemory2025, upstream } from "./testing/children";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a 2025-11-25 child's requests with several calls in flight", () => {
  it("are relayed to the session of those calls, not to a bystander session", async () => {
    let started = 0;
    const server = createServer({ name: "asker", version: "1.0.0" });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      started++;
      while (started < 2) await sleep(5);
      const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "q" } }], maxTokens: 5 });
      return `got ${(answer.content as { text?: string }).text}`;
    });
    const gateway = createGateway({ name: "gw", children: { a: { transport: inMemory2025(server) } } });
    open.push(gateway);
    const answer = (who: string, asked: string[]) => ({
      createMessage: async () => {
        asked.push(who);
        return { role: "assistant" as const, model: "m", content: { type: "text" as const, text: who } };
      },
    });
    const asked: string[] = [];
    const caller = await upstream(gateway, { protocol: "2025-11-25", sampling: answer("caller", asked) });
    open.push(caller);
    const bystander = await upstream(gateway, { protocol: "2025-11-25", sampling: answer("bystander", asked) });
    open.push(bystander);
    const text = (r: { content: readonly unknown[] }) => (r.content[0] as { text?: string }).text;
    const results = await Promise.all([caller.callTool("a__ask", {}), caller.callTool("a__ask", {})]);
    expect(results.map(text)).toEqual(["got caller", "got caller"]);
    expect(asked).toEqual(["caller", "caller"]);
  });
});
