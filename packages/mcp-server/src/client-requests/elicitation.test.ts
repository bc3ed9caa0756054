import { McpErrorCode } from "@proto/mcp-protocol";
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";
import { elicitedContentProblem } from "./elicitation-schema";
import { connectRawClient } from "./test-support";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name", minLength: 1, default: "anon" },
    age: { type: "integer", minimum: 0 },
    color: { type: "string", oneOf: [{ const: "r", title: "Red" }, { const: "g", title: "Green" }] },
    tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 2 },
    ok: { type: "boolean" },
  },
  required: ["name"],
} as const;

function formServer() {
  const s = createServer({ name: "elicit", version: "1" });
  s.tool({ name: "signup", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Who are you?", requestedSchema: schema });
    if (answer.action !== "accept") return `no: ${answer.action}`;
    const name: string = answer.content.name;
    const age: number | undefined = answer.content.age;
    return { name, age, color: answer.content.color, tags: answer.content.tags };
  });
  return s;
}

describe("form elicitation", () => {
  it("round trip with the official SDK client, content typed and checked", async () => {
    const { client } = await connectSdkClient(formServer(), { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect(request.params).toMatchObject({ mode: "form", message: "Who are you?", requestedSchema: schema });
      return { action: "accept", content: { name: "Ada", age: 36, color: "g", tags: ["a"] } };
    });
    const result = await client.callTool({ name: "signup", arguments: {} });
    expect(result.structuredContent).toEqual({ name: "Ada", age: 36, color: "g", tags: ["a"] });
  });

  it("sends no mode field to a 2025-06-18 client", async () => {
    const raw = await connectRawClient(formServer(), { elicitation: {} }, "2025-06-18");
    const answer = raw.call(1, "tools/call", { name: "signup", arguments: {} });
    const request = (await raw.next((m) => "method" in m && m.method === "elicitation/create")) as { id: number; params: object };
    expect(request.params).not.toHaveProperty("mode");
    await raw.send({ jsonrpc: "2.0", id: request.id, result: { action: "cancel" } });
    expect(await answer).toMatchObject({ result: { content: [{ text: "no: cancel" }] } });
  });

  it("passes decline and cancel through", async () => {
    const { client } = await connectSdkClient(formServer(), { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    expect((await client.callTool({ name: "signup", arguments: {} })).content).toEqual([{ type: "text", text: "no: decline" }]);
  });

  it("fails the tool (isError, -32021 under _meta) when the client declared only URL mode or nothing", async () => {
    for (const capabilities of [{}, { elicitation: { url: {} } }]) {
      const { client } = await connectSdkClient(formServer(), { capabilities });
      expect(await client.callTool({ name: "signup", arguments: {} })).toMatchObject({ isError: true, _meta: { "dev.proto/tool-error": { code: "request_failed", error: { code: McpErrorCode.MissingRequiredClientCapability } } } });
    }
  });

  it("treats content outside the schema as a malformed answer", async () => {
    const raw = await connectRawClient(formServer(), { elicitation: { form: {} } });
    const answer = raw.call(1, "tools/call", { name: "signup", arguments: {} });
    const request = await raw.next((m) => "method" in m && m.method === "elicitation/create");
    await raw.send({ jsonrpc: "2.0", id: (request as { id: number }).id, result: { action: "accept", content: { name: "x", age: 1.5 } } });
    expect(JSON.stringify(await answer)).toMatch(/field \\"age\\" must be an integer/);
  });

  it("checks every field kind", () => {
    expect(elicitedContentProblem(schema, { name: "a" })).toBeUndefined();
    expect(elicitedContentProblem(schema, {})).toMatch(/required field "name"/);
    expect(elicitedContentProblem(schema, { name: "" })).toMatch(/at least 1/);
    expect(elicitedContentProblem(schema, { name: "a", age: -1 })).toMatch(/at least 0/);
    expect(elicitedContentProblem(schema, { name: "a", color: "b" })).toMatch(/one of r, g/);
    expect(elicitedContentProblem(schema, { name: "a", tags: ["a", "c"] })).toMatch(/"c"/);
    expect(elicitedContentProblem(schema, { name: "a", tags: ["a", "b", "a"] })).toMatch(/at most 2/);
    expect(elicitedContentProblem(schema, { name: "a", ok: "yes" })).toMatch(/boolean/);
    expect(elicitedContentProblem(schema, { name: "a", extra: 1 })).toMatch(/not asked for/);
    expect(elicitedContentProblem(schema, ["a"])).toMatch(/object/);
  });

  it("rejects a nested schema before sending anything", async () => {
    const s = createServer({ name: "e", version: "1" });
    s.tool({ name: "nested", inputSchema: { type: "object" } }, async (_a, ctx) => {
      await ctx.elicit({ message: "x", requestedSchema: { type: "object", properties: { o: { type: "object" } } } as never });
      return "no";
    });
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: {} } });
    expect(JSON.stringify((await client.callTool({ name: "nested", arguments: {} })).content)).toMatch(/forms are flat/);
  });
});

describe("URL elicitation", () => {
  function urlServer() {
    const s = createServer({ name: "url", version: "1" });
    s.tool({ name: "connect", inputSchema: { type: "object" } }, async (_args, ctx) => {
      const answer = await ctx.elicitUrl({ message: "Authorize the app", url: "https://auth.example.com/start" });
      return { action: answer.action, elicitationId: answer.elicitationId };
    });
    s.tool({ name: "guarded", inputSchema: { type: "object" } }, (_args, ctx) => {
      throw ctx.urlElicitationRequired({ message: "Link your account", url: "https://auth.example.com/link", elicitationId: "link-1" });
    });
    return s;
  }

  it("round trip, then notifications/elicitation/complete to that session only", async () => {
    const s = urlServer();
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: { url: {} } } });
    const other = await connectSdkClient(s, { capabilities: { elicitation: { url: {} } } });
    let urls: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      urls.push((request.params as { url: string }).url);
      return { action: "accept" };
    });
    const completed = new Promise<string>((resolve) =>
      client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => resolve(n.params.elicitationId)),
    );
    let otherHeard = false;
    other.client.setNotificationHandler(ElicitationCompleteNotificationSchema, () => {
      otherHeard = true;
    });
    const result = await client.callTool({ name: "connect", arguments: {} });
    const { action, elicitationId } = result.structuredContent as { action: string; elicitationId: string };
    expect(action).toBe("accept");
    expect(urls).toEqual(["https://auth.example.com/start"]);
    expect(s.completeElicitation(elicitationId)).toBe(true);
    expect(await completed).toBe(elicitationId);
    expect(s.completeElicitation(elicitationId)).toBe(false);
    await other.client.ping();
    expect(otherHeard).toBe(false);
    urls = [];
  });

  it("answers -32042 with the elicitations when a tool requires one", async () => {
    const s = urlServer();
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: { url: {} } } });
    const error = await client.callTool({ name: "guarded", arguments: {} }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: McpErrorCode.UrlElicitationRequired });
    expect((error as { data: unknown }).data).toEqual({
      elicitations: [{ mode: "url", message: "Link your account", url: "https://auth.example.com/link", elicitationId: "link-1" }],
    });
    expect(s.completeElicitation("link-1")).toBe(true);
  });

  it("refuses without the url capability: -32021 (a tool error in a 2025 session), never -32042", async () => {
    const s = urlServer();
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: { form: {} } } });
    expect(await client.callTool({ name: "connect", arguments: {} })).toMatchObject({ isError: true, _meta: { "dev.proto/tool-error": { code: "request_failed", error: { code: McpErrorCode.MissingRequiredClientCapability } } } });
    expect(await client.callTool({ name: "guarded", arguments: {} })).toMatchObject({ isError: true, _meta: { "dev.proto/tool-error": { code: "request_failed", error: { code: McpErrorCode.MissingRequiredClientCapability } } } });
    expect(s.completeElicitation("link-1")).toBe(false);
  });

  it("forgets a closed session's pending elicitations", async () => {
    const s = urlServer();
    const { client, session } = await connectSdkClient(s, { capabilities: { elicitation: { url: {} } } });
    await client.callTool({ name: "guarded", arguments: {} }).catch(() => undefined);
    await session.close();
    await session.closed;
    expect(s.completeElicitation("link-1")).toBe(false);
  });
});
