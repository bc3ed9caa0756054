import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { PromptListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";

describe("prompts with the official SDK client", () => {
  it("lists prompts across several pages with arguments and icons", async () => {
    const s = createServer({ name: "p", version: "1" }, { pageSize: 2 });
    const icons = [{ src: "data:image/png;base64,AA==", theme: "dark" as const }];
    for (let i = 0; i < 5; i++) s.prompt({ name: `p${i}`, icons, arguments: [{ name: "topic", required: true }] }, () => "x");
    const { client } = await connectSdkClient(s);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listPrompts(cursor === undefined ? {} : { cursor });
      names.push(...page.prompts.map((p) => p.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual(["p0", "p1", "p2", "p3", "p4"]);
    const first = (await client.listPrompts()).prompts[0];
    expect(first).toEqual({ name: "p0", icons, arguments: [{ name: "topic", required: true }] });
  });

  it("gets a prompt with typed arguments and every content kind", async () => {
    const s = createServer({ name: "p", version: "1" });
    s.prompt(
      {
        name: "review",
        description: "Review code",
        arguments: [
          { name: "code", required: true },
          { name: "style", description: "house style" },
        ] as const,
      },
      (args) => {
        const code: string = args.code;
        const style: string | undefined = args.style;
        return [
          { role: "user", content: `Review ${code} in ${style ?? "any"} style` },
          { role: "user", content: { type: "image", data: "AA==", mimeType: "image/png" } },
          { role: "user", content: { type: "audio", data: "AA==", mimeType: "audio/wav" } },
          { role: "assistant", content: { type: "resource", resource: { uri: "mem://x", text: "embedded" } } },
          { role: "user", content: { type: "resource_link", uri: "mem://y", name: "y" } },
        ];
      },
    );
    const { client } = await connectSdkClient(s);
    const result = await client.getPrompt({ name: "review", arguments: { code: "f()" } });
    expect(result.description).toBe("Review code");
    expect(result.messages.map((m) => m.content.type)).toEqual(["text", "image", "audio", "resource", "resource_link"]);
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "Review f() in any style" });
  });

  it("refuses an unknown prompt, a missing required argument, an undeclared one, a non-string one", async () => {
    const s = createServer({ name: "p", version: "1" });
    let ran = 0;
    s.prompt({ name: "greet", arguments: [{ name: "who", required: true }] as const }, ({ who }) => {
      ran++;
      return `hi ${who}`;
    });
    const { client } = await connectSdkClient(s);
    await expect(client.getPrompt({ name: "nope" })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
    await expect(client.getPrompt({ name: "greet" })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams, message: expect.stringMatching(/missing required argument who/) });
    await expect(client.getPrompt({ name: "greet", arguments: { who: "a", extra: "b" } })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
    await expect(client.request({ method: "prompts/get", params: { name: "greet", arguments: { who: 3 } } }, (await import("@modelcontextprotocol/sdk/types.js")).GetPromptResultSchema)).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
    expect(ran).toBe(0);
    await expect(client.getPrompt({ name: "greet", arguments: { who: "bob" } })).resolves.toMatchObject({ messages: [{ content: { text: "hi bob" } }] });
  });

  it("sends list_changed on add and remove, and rejects bad definitions at registration", async () => {
    const s = createServer({ name: "p", version: "1" });
    const handle = s.prompt({ name: "a" }, () => "a");
    const { client } = await connectSdkClient(s);
    const changed = new Promise<void>((resolve) => client.setNotificationHandler(PromptListChangedNotificationSchema, () => resolve()));
    handle.remove();
    await changed;
    expect((await client.listPrompts()).prompts).toEqual([]);
    expect(() => s.prompt({ name: "" }, () => "x")).toThrow(TypeError);
    expect(() => s.prompt({ name: "x", icons: [{ src: "javascript:alert(1)" }] }, () => "x")).toThrow(/https: or data:/);
    expect(() => s.prompt({ name: "x", arguments: [{ name: "a" }, { name: "a" }] }, () => "x")).toThrow(/declared twice/);
    s.prompt({ name: "dup" }, () => "x");
    expect(() => s.prompt({ name: "dup" }, () => "x")).toThrow(/already registered/);
  });

  it("answers -32603 without details when a handler returns a bad shape", async () => {
    const errors: unknown[] = [];
    const s = createServer({ name: "p", version: "1" }, { logger: { warn() {}, error: (_m, d) => errors.push(d) } });
    s.prompt({ name: "bad" }, () => [{ role: "user", content: { type: "video" } }] as never);
    const { client } = await connectSdkClient(s);
    await expect(client.getPrompt({ name: "bad" })).rejects.toMatchObject({ code: JsonRpcErrorCode.InternalError });
    expect(String(errors[0])).toMatch(/content type "video"/);
  });
});
