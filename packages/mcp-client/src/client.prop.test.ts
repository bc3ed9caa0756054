import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonRpcError } from "@proto/jsonrpc";
import { createClient } from "./client";
import { createScriptedServer } from "./fixtures/scripted-server";

const methods = [
  "notifications/progress",
  "notifications/message",
  "notifications/resources/updated",
  "notifications/tools/list_changed",
  "notifications/elicitation/complete",
  "notifications/cancelled",
  "ping",
  "roots/list",
  "sampling/createMessage",
  "elicitation/create",
  "unknown/method",
];

const messageArb = fc.record({
  method: fc.constantFrom(...methods),
  params: fc.option(fc.oneof(fc.dictionary(fc.constantFrom("progressToken", "progress", "level", "data", "uri", "mode", "message", "requestedSchema", "url", "elicitationId", "messages", "maxTokens", "requestId", "_meta"), fc.jsonValue()), fc.array(fc.jsonValue(), { maxLength: 3 })), { nil: undefined }),
  request: fc.boolean(),
});

describe("client robustness", () => {
  it("any notification or request a server sends leaves the client working, and every request is answered", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(messageArb, { maxLength: 15 }), async (messages) => {
        const server = await createScriptedServer();
        const errors: unknown[] = [];
        const client = createClient({
          info: { name: "t", version: "1" },
          roots: [{ uri: "file:///r" }],
          sampling: { createMessage: () => ({ role: "assistant", model: "m", content: { type: "text", text: "x" } }) },
          elicitation: { form: () => ({ action: "decline" }), url: () => ({ action: "cancel" }) },
          logger: { warn() {}, error: (_m, d) => errors.push(d) },
        });
        for (const event of ["log", "resourceUpdated", "toolsChanged", "elicitationComplete"] as const) client.on(event, () => {});
        await client.connect(server.transport);
        const answers = await Promise.all(messages.map(async ({ method, params, request }) => {
          const p = params as never;
          if (!request) return server.peer.notify(method, p).then(() => "sent");
          return server.peer.request(method, p, { timeoutMs: 10_000 }).then(
            () => "result",
            (e: unknown) => (e instanceof JsonRpcError ? "error" : `unexpected ${String(e)}`),
          );
        }));
        for (const answer of answers) expect(["sent", "result", "error"]).toContain(answer);
        await client.ping();
        expect(client.state).toBe("connected");
        await client.close();
      }),
      { numRuns: 40 },
    );
  });
});
