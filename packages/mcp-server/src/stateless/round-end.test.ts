/** `isInputRoundEnd`: the rejection a handler's input request gets when its 2026-07-28 round ended, and nothing else. */
import { describe, expect, it } from "vitest";
import { connectRaw } from "../test-helpers";
import { createServer } from "../server";
import { isInputRoundEnd } from "../index";

const env = (caps: Record<string, unknown>) => ({ _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": caps } });

describe("isInputRoundEnd", () => {
  it("is true for the rejection of an input the round ended on, false for a refused input and for other errors", async () => {
    const seen: boolean[] = [];
    let settled: () => void = () => {};
    const done = new Promise<void>((resolve) => (settled = resolve));
    const server = createServer({ name: "s", version: "1" });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      try {
        return (await ctx.elicit({ message: "Name?", requestedSchema: { type: "object", properties: {} } })).action;
      } catch (error) {
        seen.push(isInputRoundEnd(error));
        settled();
        throw error;
      }
    });
    const client = await connectRaw(server);
    const first = (await client.call(1, "tools/call", { name: "ask", ...env({ elicitation: { form: {} } }) })) as { result?: { resultType?: string } };
    expect(first.result?.resultType).toBe("input_required");
    await done;
    // Without the capability the input is refused (-32021), which is no round end.
    settled = () => {};
    await client.call(2, "tools/call", { name: "ask", ...env({}) });
    expect(seen).toEqual([true, false]);
    expect(isInputRoundEnd(new Error("the round ended: the client is asked for input"))).toBe(false);
    expect(isInputRoundEnd(undefined)).toBe(false);
  });
});
