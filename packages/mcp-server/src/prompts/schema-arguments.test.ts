import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

const LISTED = [
  { name: "code", description: "The code to review", required: true },
  { name: "style", description: "House style" },
];

describe("prompt arguments as a Standard JSON Schema", () => {
  it("lists the same arguments from zod, valibot and arktype, and types the handler from the schema", async () => {
    const s = createServer({ name: "p", version: "1" });
    s.prompt({ name: "zod", arguments: z.object({ code: z.string().describe("The code to review"), style: z.string().describe("House style").optional() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ code: string; style?: string | undefined }>();
      return `${args.code} ${args.style ?? "-"}`;
    });
    s.prompt({ name: "valibot", arguments: toStandardJsonSchema(v.object({ code: v.pipe(v.string(), v.description("The code to review")), style: v.optional(v.pipe(v.string(), v.description("House style"))) })) }, (args) => `${args.code} ${args.style ?? "-"}`);
    s.prompt({ name: "arktype", arguments: type({ code: type("string").describe("The code to review"), "style?": type("string").describe("House style") }) }, (args) => `${args.code} ${args.style ?? "-"}`);
    const { client } = await connectSdkClient(s);
    const { prompts } = await client.listPrompts();
    for (const p of prompts) expect(p.arguments).toEqual(LISTED);
    for (const name of ["zod", "valibot", "arktype"]) {
      expect((await client.getPrompt({ name, arguments: { code: "f()" } })).messages[0]?.content).toEqual({ type: "text", text: "f() -" });
      await expect(client.getPrompt({ name, arguments: {} })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams, message: expect.stringMatching(/missing required argument code/) });
    }
    await s.close();
  });

  it("runs the library's refinements and transforms after the wire checks", async () => {
    const s = createServer({ name: "p", version: "1" });
    s.prompt(
      { name: "review", arguments: z.object({ code: z.string().min(3, "Paste at least 3 characters of code").transform((c) => c.trim()), lang: z.enum(["ts", "js"]).optional() }), complete: { lang: ["ts", "js"] } },
      ({ code, lang }) => `[${code}] ${lang ?? "any"}`,
    );
    const { client } = await connectSdkClient(s);
    expect((await client.getPrompt({ name: "review", arguments: { code: "  f()  " } })).messages[0]?.content).toEqual({ type: "text", text: "[f()] any" });
    await expect(client.getPrompt({ name: "review", arguments: { code: "x" } })).rejects.toMatchObject({
      code: JsonRpcErrorCode.InvalidParams,
      message: expect.stringContaining('prompts/get "review": argument "code": Paste at least 3 characters of code'),
    });
    await expect(client.getPrompt({ name: "review", arguments: { code: "abc", lang: "py" } })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams, message: expect.stringContaining('argument "lang"') });
    await expect(client.getPrompt({ name: "review", arguments: { code: "abc", other: "1" } })).rejects.toMatchObject({ message: expect.stringMatching(/unexpected argument "other"/) });
    await s.close();
  });

  it("refuses at registration a schema that is not an object of string fields, or not a schema at all", () => {
    const s = createServer({ name: "p", version: "1" });
    expect(() => s.prompt({ name: "n", arguments: z.object({ count: z.number() }) }, () => "")).toThrow(/argument "count" must be a string field/);
    expect(() => s.prompt({ name: "n", arguments: z.string() }, () => "")).toThrow(/must describe an object/);
    expect(() => s.prompt({ name: "n", arguments: v.object({ a: v.string() }) as never }, () => "")).toThrow(/toStandardJsonSchema/);
    expect(() => s.prompt({ name: "n", arguments: { code: "string" } as never }, () => "")).toThrow(TypeError);
  });
});
