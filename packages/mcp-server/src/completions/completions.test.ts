import { JsonRpcErrorCode } from "@proto/jsonrpc";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import { connectSdkClient } from "../test-helpers";
import { toCompleteResult } from "./completions";

describe("toCompleteResult", () => {
  it("keeps at most 100 values and reports total and hasMore", () => {
    const many = Array.from({ length: 250 }, (_, i) => `v${i}`);
    const result = toCompleteResult(many);
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion).toMatchObject({ total: 250, hasMore: true });
    expect(toCompleteResult(["a"]).completion).toEqual({ values: ["a"] });
    expect(toCompleteResult({ values: ["a"], total: 10, hasMore: true }).completion).toEqual({ values: ["a"], total: 10, hasMore: true });
    expect(() => toCompleteResult([1] as never)).toThrow(TypeError);
  });
});

describe("completion/complete with the official SDK client", () => {
  const setup = async () => {
    const s = createServer({ name: "c", version: "1" });
    s.prompt(
      {
        name: "team",
        arguments: [
          { name: "department" },
          { name: "member" },
          { name: "free" },
        ],
        complete: {
          department: ["Engineering", "Sales", "Support"],
          member: (value, { arguments: args }) =>
            (args.department === "Sales" ? ["Sam", "Sara"] : ["Eve", "Ed"]).filter((m) => m.toLowerCase().startsWith(value.toLowerCase())),
        },
      },
      () => "x",
    );
    s.resourceTemplate(
      { uriTemplate: "repo://{owner}/{name}", name: "repo", complete: { name: (value) => Array.from({ length: 300 }, (_, i) => `${value}${i}`) } },
      () => "x",
    );
    return connectSdkClient(s);
  };

  it("completes prompt arguments from a list and from a function with context arguments", async () => {
    const { client } = await setup();
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const ref = { type: "ref/prompt" as const, name: "team" };
    expect((await client.complete({ ref, argument: { name: "department", value: "s" } })).completion).toEqual({ values: ["Sales", "Support"] });
    const sales = await client.complete({ ref, argument: { name: "member", value: "sar" }, context: { arguments: { department: "Sales" } } });
    expect(sales.completion.values).toEqual(["Sara"]);
    expect((await client.complete({ ref, argument: { name: "free", value: "" } })).completion).toEqual({ values: [] });
  });

  it("completes template variables, at most 100 values with total and hasMore", async () => {
    const { client } = await setup();
    const result = await client.complete({ ref: { type: "ref/resource", uri: "repo://{owner}/{name}" }, argument: { name: "name", value: "x" } });
    expect(result.completion.values).toHaveLength(100);
    expect(result.completion.values[0]).toBe("x0");
    expect(result.completion).toMatchObject({ total: 300, hasMore: true });
  });

  it("refuses an unknown prompt or template with -32602", async () => {
    const { client } = await setup();
    await expect(client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "a", value: "" } })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
    await expect(client.complete({ ref: { type: "ref/resource", uri: "x://{y}" }, argument: { name: "y", value: "" } })).rejects.toMatchObject({ code: JsonRpcErrorCode.InvalidParams });
  });

  it("rejects a completer for a variable the template does not have, at registration", () => {
    const s = createServer({ name: "c", version: "1" });
    expect(() => s.resourceTemplate({ uriTemplate: "a://{x}", name: "a", complete: { y: ["1"] } }, () => "x")).toThrow(/names no variable/);
  });
});
