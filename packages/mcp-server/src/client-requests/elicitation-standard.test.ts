import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { type } from "arktype";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

const form = z.object({
  name: z.string().min(1).describe("Your name").refine((n) => n.trim() !== "root", "That name is reserved").transform((n) => n.trim()),
  age: z.int().min(18, "You must be an adult").optional(),
  plan: z.enum(["free", "pro"]),
});

function server(requestedSchema: typeof form | ReturnType<typeof type<{ name: "string" }>>) {
  const s = createServer({ name: "elicit", version: "1" });
  s.tool({ name: "signup", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ message: "Who are you?", requestedSchema });
    return answer.action === "accept" ? { content: answer.content } : answer.action;
  });
  return s;
}

describe("form elicitation with a Standard JSON Schema", () => {
  it("sends its JSON Schema, validates the answer with the library (transforms applied) and types the content", async () => {
    const s = createServer({ name: "elicit", version: "1" });
    s.tool({ name: "typed", inputSchema: { type: "object" } }, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "Who are you?", requestedSchema: form });
      if (answer.action !== "accept") return "no";
      expectTypeOf(answer.content).toEqualTypeOf<{ name: string; plan: "free" | "pro"; age?: number | undefined }>();
      return { name: answer.content.name, plan: answer.content.plan };
    });
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      expect((request.params as { requestedSchema?: unknown }).requestedSchema).toMatchObject({
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, description: "Your name" },
          age: { type: "integer", minimum: 18, maximum: Number.MAX_SAFE_INTEGER },
          plan: { type: "string", enum: ["free", "pro"] },
        },
        required: ["name", "plan"],
      });
      return { action: "accept", content: { name: "  Ada ", plan: "pro" } };
    });
    expect((await client.callTool({ name: "typed", arguments: {} })).structuredContent).toEqual({ name: "Ada", plan: "pro" });
  });

  it("refuses an answer the library refuses (a refinement JSON Schema cannot say), with its message", async () => {
    const { client } = await connectSdkClient(server(form), { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: " root", plan: "pro", age: 30 } }));
    const result = await client.callTool({ name: "signup", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/field \\"name\\": That name is reserved/);
  });

  it("refuses a schema that is not a flat form before sending anything", async () => {
    const nested = z.object({ address: z.object({ city: z.string() }) });
    const s = createServer({ name: "elicit", version: "1" });
    s.tool({ name: "bad", inputSchema: { type: "object" } }, async (_args, ctx) => {
      const answer = await ctx.elicit({ message: "Where?", requestedSchema: nested as never });
      return answer.action;
    });
    let asked = 0;
    const { client } = await connectSdkClient(s, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => (asked++, { action: "cancel" }));
    const result = await client.callTool({ name: "bad", arguments: {} });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/field \\"address\\" must be a string, number, integer, boolean or enum-array field/);
    expect(asked).toBe(0);
  });

  it("accepts an arktype form too", async () => {
    const { client } = await connectSdkClient(server(type({ name: "string" })), { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
    expect((await client.callTool({ name: "signup", arguments: {} })).structuredContent).toEqual({ content: { name: "Ada" } });
  });
});
