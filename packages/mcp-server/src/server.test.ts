import { afterEach, describe, expect, it } from "vitest";
import { createServer } from "./server";
import { connectSdkClient } from "./test-helpers";
import type { Server } from "./server-types";

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("with the official SDK client", () => {
  it("initializes, lists and calls a tool", async () => {
    server = createServer({ name: "demo", version: "1.2.3", title: "Demo", instructions: "Use add." });
    server.tool(
      { name: "add", description: "Adds", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
      ({ a, b }) => ({ sum: a + b }),
    );
    const { client } = await connectSdkClient(server);
    expect(client.getServerVersion()).toMatchObject({ name: "demo", version: "1.2.3", title: "Demo" });
    expect(client.getInstructions()).toBe("Use add.");
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["add"]);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: "3" } });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    await client.close();
  });
});
