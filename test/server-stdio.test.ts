import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ListToolsResultSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../", import.meta.url));
const fixture = fileURLToPath(new URL("./server-stdio.fixture.ts", import.meta.url));

describe("@proto/mcp-server over real stdio, with the official SDK client", () => {
  let client: Client;

  beforeAll(async () => {
    client = new Client({ name: "sdk-stdio", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", fixture],
      cwd: root,
      env: { ...process.env, TSX_TSCONFIG_PATH: `${root}tsconfig.json` } as Record<string, string>,
      stderr: "inherit",
    });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("initializes and answers server/discover", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "stdio-tools", version: "1.0.0" });
    expect(client.getInstructions()).toBe("Tools over stdio.");
    const discovered = await client.request({ method: "server/discover" }, ResultSchema);
    expect(discovered).toMatchObject({ supportedVersions: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"], serverInfo: { name: "stdio-tools" } });
  });

  it("paginates tools/list and never lists the hidden tool", async () => {
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(["add", "echo"]);
    const second = await client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((t) => t.name)).toEqual(["lazy", "loads"]);
    expect(second.nextCursor).toBeUndefined();
  });

  it("coerces, validates and checks output", async () => {
    expect(await client.callTool({ name: "add", arguments: { a: "2", b: 3 } })).toMatchObject({ structuredContent: { sum: 5 } });
    const refused = await client.callTool({ name: "echo", arguments: { text: "far too long for this" } });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0]?.text).toMatch(/maxLength/);
  });

  it("refuses the hidden tool like an unknown one, answers -32022", async () => {
    await expect(client.callTool({ name: "secret" })).rejects.toMatchObject({ code: -32602 });
    const error = await client
      .request({ method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } }, ListToolsResultSchema)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32022, data: { requested: "2099-01-01" } });
  });

  it("loads a lazy tool on its first call only", async () => {
    expect((await client.callTool({ name: "loads" })).structuredContent).toEqual({ loads: 0 });
    expect(await client.callTool({ name: "lazy" })).toMatchObject({ content: [{ text: "loaded on demand" }] });
    await client.callTool({ name: "lazy" });
    expect((await client.callTool({ name: "loads" })).structuredContent).toEqual({ loads: 1 });
  });
});
