/**
 * A 2025-11-25 child's requests (sampling here) behind a 2026-07-28 upstream, which can be
 * asked only inside an input round: the round ends the upstream request and its retry calls
 * the child again. The first call to the child is then abandoned (cancelled on the child, and
 * no longer a call the child's requests could belong to), so the retry's request is relayed
 * even while the first call's handler still runs; two calls genuinely in flight at once get
 * an error that says why their requests cannot be relayed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "@proto/mcp-server";
import type { Client } from "@proto/mcp-client";
import { createGateway } from "./gateway";
import { inMemory2025, upstream } from "./testing/children";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A child whose `ask` samples the client; a run whose sampling fails lingers `lingerMs` before it fails; `before(id)` runs first. */
function asker(lingerMs: number, before: (id: string) => Promise<void> = async () => {}) {
  const runs: { aborted: boolean }[] = [];
  const server = createServer({ name: "asker", version: "1.0.0" });
  server.tool({ name: "ask", inputSchema: { type: "object", properties: { id: { type: "string" } } } }, async ({ id }, ctx) => {
    const run = { aborted: false };
    runs.push(run);
    ctx.signal.addEventListener("abort", () => (run.aborted = true));
    await before(String(id ?? ""));
    try {
      const answer = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: `q${String(id ?? "")}` } }], maxTokens: 5 });
      return `got ${(answer.content as { text?: string }).text}`;
    } catch (error) {
      await sleep(lingerMs);
      throw error;
    }
  });
  return { server, runs };
}

async function hostOf(child: ReturnType<typeof asker>): Promise<Client> {
  const gateway = createGateway({ name: "gw", children: { a: { transport: inMemory2025(child.server) } } });
  open.push(gateway);
  const host = await upstream(gateway, {
    protocol: "2026-07-28",
    sampling: { createMessage: async (params) => ({ role: "assistant", model: "m", content: { type: "text", text: `a:${(params.messages[0]?.content as { text: string }).text}` } }) },
  });
  open.push(host);
  return host;
}

const text = (result: { content: readonly unknown[] }) => (result.content[0] as { text?: string }).text;

describe("a 2025-11-25 child's requests behind a 2026-07-28 upstream", () => {
  it("relays the retry's request while the first run still lingers, and cancels that run on the child", async () => {
    const child = asker(300);
    const host = await hostOf(child);
    expect(text(await host.callTool("a__ask", { id: "1" }))).toBe("got a:q1");
    expect(child.runs).toHaveLength(2);
    expect(child.runs[0]?.aborted).toBe(true);
    expect(child.runs[1]?.aborted).toBe(false);
  });

  it("refuses, saying why, a request made while two calls to that child are in flight", async () => {
    // Call 2 asks once both calls reached the child (both in flight at the gateway); call 1 asks only after call 2 ended.
    let proceed: () => void = () => {};
    const go = new Promise<void>((resolve) => (proceed = resolve));
    let started = 0;
    const child = asker(0, async (id) => {
      started++;
      while (started < 2) await sleep(5);
      if (id === "1") await go;
    });
    const host = await hostOf(child);
    const settle = (p: Promise<{ content: readonly unknown[] }>) => p.then(text, (e: unknown) => String((e as Error).message));
    const first = settle(host.callTool("a__ask", { id: "1" }));
    const second = await settle(host.callTool("a__ask", { id: "2" }));
    expect(second).toContain("2 calls to it were in flight");
    expect(second).toContain('protocol: "2026-07-28"');
    proceed();
    expect(await first).toBe("got a:q1");
  });
});
