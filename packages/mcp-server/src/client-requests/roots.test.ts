import { McpErrorCode } from "@proto/mcp-protocol";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createServer } from "../server";
import type { ServerSession } from "../session-types";
import { connectSdkClient } from "../test-helpers";

function rootsServer() {
  const s = createServer({ name: "roots", version: "1" });
  s.tool({ name: "roots", inputSchema: { type: "object" } }, async (_args, ctx) => ({ roots: await ctx.listRoots() }));
  return s;
}

describe("roots", () => {
  it("round trip, cached until notifications/roots/list_changed", async () => {
    const s = rootsServer();
    const { client, session } = await connectSdkClient(s, { capabilities: { roots: { listChanged: true } } });
    let asked = 0;
    let roots = [{ uri: "file:///work", name: "work" }];
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots };
    });
    const changed = new Promise<ServerSession>((resolve) => {
      const stop = s.watchRoots((who) => {
        stop();
        resolve(who);
      });
    });
    expect((await client.callTool({ name: "roots", arguments: {} })).structuredContent).toEqual({ roots });
    await client.callTool({ name: "roots", arguments: {} });
    expect(asked).toBe(1);
    roots = [{ uri: "file:///other", name: "other" }];
    await client.sendRootsListChanged();
    expect(await changed).toBe(session);
    expect((await client.callTool({ name: "roots", arguments: {} })).structuredContent).toEqual({ roots });
    expect(asked).toBe(2);
    expect(await s.listRoots(session, { fresh: true })).toEqual(roots);
    expect(asked).toBe(3);
  });

  it("asks every time when the client does not promise list_changed", async () => {
    const s = rootsServer();
    const { client } = await connectSdkClient(s, { capabilities: { roots: {} } });
    let asked = 0;
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked++;
      return { roots: [] };
    });
    await client.callTool({ name: "roots", arguments: {} });
    await client.callTool({ name: "roots", arguments: {} });
    expect(asked).toBe(2);
  });

  it("refuses with -32021 when the client did not declare roots (the tool's isError result in a 2025 session)", async () => {
    const { client } = await connectSdkClient(rootsServer());
    expect(await client.callTool({ name: "roots", arguments: {} })).toMatchObject({
      isError: true,
      _meta: { "dev.proto/tool-error": { error: { code: McpErrorCode.MissingRequiredClientCapability, data: { requiredCapabilities: { roots: {} } } } } },
    });
  });
});
