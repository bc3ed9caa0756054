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

describe("hostile input", () => {
  it("any params to any method get a result or a clear JSON-RPC error, and the session goes on", async () => {
    const server = createServer({ name: "h", version: "1" }, { pageSize: 1 });
    server.tool({ name: "t", inputSchema: { type: "object", properties: { n: { type: "number" } } } }, ({ n }) => n ?? 0);
    server.tool({ name: "u", inputSchema: { type: "object" } }, () => "u");
    const methods = ["initialize", "ping", "server/discover", "tools/list", "tools/call", "no/such", "notifications/cancelled"];
    const params = fc.oneof(
      fc.jsonValue(),
      fc.record({ name: fc.oneof(fc.constantFrom("t", "u", "x"), fc.jsonValue()), arguments: fc.jsonValue(), cursor: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record({ _meta: fc.oneof(fc.jsonValue(), fc.record({ "io.modelcontextprotocol/protocolVersion": fc.jsonValue() })) }, { requiredKeys: [] }),
    );
    try {
      const client = await connectRaw(server);
      await initializeRaw(client);
      let id = 0;
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...methods), params, async (method, p) => {
          const sent = typeof p === "object" && p !== null ? p : undefined;
          const response = await client.call(++id, method, sent);
          if ("error" in response) {
            expect([-32600, -32601, -32602, -32022]).toContain(response.error.code);
            expect(response.error.message.length).toBeGreaterThan(10);
            expect(JSON.stringify(response.error)).not.toMatch(/\bat .*\.ts:\d+/);
          }
          expect(await client.call(`ping-${id}`, "ping")).toMatchObject({ result: {} });
        }),
        { numRuns: 300 },
      );
    } finally {
      await server.close();
    }
  });
});
