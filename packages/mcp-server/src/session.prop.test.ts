import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { JsonRpcSuccess } from "@proto/jsonrpc";
import type { CallToolResult } from "@proto/mcp-protocol";
import { createServer } from "./server";
import { connectRaw, initializeRaw } from "./test-helpers";

describe("isolated sessions", () => {
  it("100 concurrent sessions with colliding request ids never get each other's responses", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ requests: fc.integer({ min: 1, max: 4 }), yields: fc.integer({ min: 0, max: 5 }) }), { minLength: 100, maxLength: 100 }),
        async (plans) => {
          const server = createServer({ name: "iso", version: "1" });
          server.tool(
            { name: "whoami", inputSchema: { type: "object", properties: { token: { type: "string" }, yields: { type: "integer" } }, required: ["token", "yields"] } },
            async ({ token, yields }, ctx) => {
              for (let i = 0; i < yields; i++) await Promise.resolve();
              return { token, session: ctx.session.id };
            },
          );
          try {
            const clients = await Promise.all(plans.map(() => connectRaw(server)));
            await Promise.all(clients.map((c) => initializeRaw(c)));
            await Promise.all(
              clients.map(async (client, s) => {
                const plan = plans[s] as { requests: number; yields: number };
                const calls = Array.from({ length: plan.requests }, (_, id) =>
                  client.call(id, "tools/call", { name: "whoami", arguments: { token: `s${s}-r${id}`, yields: (plan.yields + id) % 6 } }),
                );
                const responses = (await Promise.all(calls)) as JsonRpcSuccess[];
                responses.forEach((response, id) => {
                  expect(response.id).toBe(id);
                  expect((response.result as CallToolResult).structuredContent).toEqual({ token: `s${s}-r${id}`, session: client.session.id });
                });
                // Nothing beyond our own responses (and no stray notification) reached this client.
                expect(client.received.filter((p) => !Array.isArray(p) && "id" in p && p.id !== "init")).toHaveLength(plan.requests);
              }),
            );
            expect(new Set(clients.map((c) => c.session.id)).size).toBe(100);
          } finally {
            await server.close();
          }
        },
      ),
      { numRuns: 5 },
    );
  });
});
