/**
 * The race of one round (input-rounds.ts `Round.run`): the first of the handler's outcome and
 * the end of the round wins, whatever the handler does with its input requests afterwards.
 */
import { describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { createServer } from "../server";
import { connectRaw } from "../test-helpers";

const V = "io.modelcontextprotocol/protocolVersion";
const C = "io.modelcontextprotocol/clientCapabilities";
const env = { _meta: { [V]: "2026-07-28", [C]: { elicitation: { form: {} }, roots: {} } } };
const KEY = { id: "k1", secret: "0123456789abcdef0123456789abcdef" };
const FORM = { message: "?", requestedSchema: { type: "object" as const, properties: {} } };

type Res = { id?: unknown; result?: Record<string, unknown>; error?: { code: number } };

function make(handler: (ctx: RequestContext) => unknown) {
  const server = createServer({ name: "s", version: "1" }, { stateless: { requestState: { keys: [KEY] } } });
  server.tool({ name: "t", inputSchema: { type: "object" } }, (_args, ctx) => handler(ctx) as never);
  server.tool({ name: "plain", inputSchema: { type: "object" } }, () => "plain");
  return server;
}

const turn = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the race of a round", () => {
  it("answers input_required when the round ends, while a handler that caught the rejection keeps running", async () => {
    let release: (value: string) => void = () => {};
    const gate = new Promise<string>((resolve) => (release = resolve));
    let caught: unknown;
    const client = await connectRaw(
      make(async (ctx) => {
        try {
          await ctx.elicit(FORM);
        } catch (error) {
          caught = error;
        }
        return gate;
      }),
    );
    // the handler is still pending (the gate is closed): the answer comes from the end of the round
    const first = (await client.call(1, "tools/call", { name: "t", ...env })) as Res;
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-0": { method: "elicitation/create" } } });
    expect(caught).toBeInstanceOf(Error);
    // the handler's late result is dropped: one answer for id 1, and the session goes on
    release("late");
    await turn();
    expect(client.received.filter((m) => (m as Res).id === 1)).toHaveLength(1);
    expect(((await client.call(2, "tools/call", { name: "plain", ...env })) as Res).result?.content).toEqual([{ type: "text", text: "plain" }]);
  });

  it("a handler that asks twice in one turn and catches both still yields input_required for both", async () => {
    const outcomes: string[] = [];
    const client = await connectRaw(
      make(async (ctx) => {
        const a = ctx.elicit(FORM);
        const b = ctx.listRoots();
        for (const r of await Promise.allSettled([a, b])) outcomes.push(r.status);
        return "caught them";
      }),
    );
    const res = (await client.call(1, "tools/call", { name: "t", ...env })) as Res;
    expect(res.result?.resultType).toBe("input_required");
    expect(Object.keys(res.result?.inputRequests as object).sort()).toEqual(["elicit-0", "roots-1"]);
    expect(outcomes).toEqual(["rejected", "rejected"]);
  });

  it("a handler that throws after the round ended changes nothing: no second answer, no unhandled rejection", async () => {
    const client = await connectRaw(
      make(async (ctx) => {
        await ctx.elicit(FORM).catch(() => undefined);
        await turn(1);
        // asked after the round ended: refused at once
        await ctx.listRoots();
        return "never";
      }),
    );
    const res = (await client.call(1, "tools/call", { name: "t", ...env })) as Res;
    expect(res.result?.resultType).toBe("input_required");
    await turn(20);
    expect(client.received.filter((m) => (m as Res).id === 1)).toHaveLength(1);
  });

  it("an async handler that asked without waiting and settled first answers its own result; its request is never rejected", async () => {
    let rejected = false;
    const client = await connectRaw(
      make(async (ctx) => {
        void ctx.listRoots().catch(() => (rejected = true));
        await Promise.resolve();
        return "mine";
      }),
    );
    const res = (await client.call(1, "tools/call", { name: "t", ...env })) as Res;
    expect(res.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "mine" }] });
    await turn(20);
    expect(rejected).toBe(false);
  });

  it("an async handler that never asks answers as the same handler run synchronously, result and error", async () => {
    const answers = async (handler: (ctx: RequestContext) => unknown) => {
      const client = await connectRaw(make(handler));
      return [(await client.call(1, "tools/call", { name: "t", ...env })) as Res, (await client.call(2, "tools/call", { name: "t", ...env })) as Res];
    };
    const value = { content: [{ type: "text", text: "v" }], structuredContent: { n: 1 } };
    expect(await answers(async () => value)).toEqual(await answers(() => value));
    const boom = () => {
      throw new Error("boom");
    };
    const thrown = await answers(async () => boom());
    expect(thrown).toEqual(await answers(boom));
    expect(thrown[0]?.result?.isError).toBe(true);
  });

  it("an intercepted async tool still asks, and its retry completes", async () => {
    const server = make(async (ctx) => (await ctx.elicit(FORM)).action);
    const seen: string[] = [];
    server.use({
      id: "com.example/watch",
      intercept: {
        "tools/call": (params, _ctx, next) =>
          next(params).then(
            (result) => (seen.push("result"), result),
            (error: unknown) => {
              seen.push("rejected");
              throw error;
            },
          ),
      },
    });
    const client = await connectRaw(server);
    const first = (await client.call(1, "tools/call", { name: "t", ...env })) as Res;
    expect(first.result?.resultType).toBe("input_required");
    await turn();
    // the interceptor sees the handler's outcome: its request rejected when the round ended
    expect(seen).toEqual(["rejected"]);
    const retry = (await client.call(2, "tools/call", { name: "t", ...env, inputResponses: { "elicit-0": { action: "decline" } }, requestState: first.result?.requestState })) as Res;
    expect(retry.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "decline" }] });
    expect(seen).toEqual(["rejected", "result"]);
  });
});
