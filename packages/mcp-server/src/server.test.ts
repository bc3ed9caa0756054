import { afterEach, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport as SdkTransport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ListToolsResultSchema, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import { createServer } from "./server";
import { connectSdkClient } from "./test-helpers";
import type { Server } from "./server-types";

let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function make(): Server {
  server = createServer({ name: "demo", version: "1.2.3", title: "Demo", instructions: "Use add." });
  server.tool(
    { name: "add", description: "Adds", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
    ({ a, b }) => ({ sum: a + b }),
  );
  return server;
}

/** Wraps the SDK end of a bridge so the SDK client's initialize asks for `version` (it always asks for its latest). */
function askingFor(sdk: SdkTransport, version: string): SdkTransport {
  const send = sdk.send.bind(sdk);
  sdk.send = (message: JSONRPCMessage, options) => {
    if ("method" in message && message.method === "initialize" && message.params !== undefined) {
      return send({ ...message, params: { ...message.params, protocolVersion: version } }, options);
    }
    return send(message, options);
  };
  return sdk;
}

describe("with the official SDK client", () => {
  it("initializes, lists and calls a tool", async () => {
    const { client } = await connectSdkClient(make());
    expect(client.getServerVersion()).toMatchObject({ name: "demo", version: "1.2.3", title: "Demo" });
    expect(client.getInstructions()).toBe("Use add.");
    expect(client.getServerCapabilities()).toMatchObject({ tools: { listChanged: true } });
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(["add"]);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: "3" } });
    expect(result).toEqual({ content: [{ type: "text", text: '{"sum":5}' }], structuredContent: { sum: 5 } });
    await client.close();
  });

  const versions: [string, string][] = [["2025-11-25", "2025-11-25"], ["2025-06-18", "2025-06-18"], ["2025-03-26", "2025-03-26"], ["2024-11-05", "2024-11-05"], ["1999-01-01", "2025-11-25"]];
  for (const [asked, answered] of versions) {
    it(`initializes when the client asks for ${asked}`, async () => {
      const s = make();
      const bridge = createSdkBridge();
      const session = await s.connect(bridge.ours);
      const client = new Client({ name: "sdk", version: "1" });
      await client.connect(askingFor(bridge.sdk, asked));
      expect(session.protocolVersion).toBe(answered);
      expect(client.getServerVersion()?.name).toBe("demo");
      expect((await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).structuredContent).toEqual({ sum: 2 });
      await client.close();
    });
  }

  it("answers server/discover", async () => {
    const { client } = await connectSdkClient(make());
    const result = await client.request({ method: "server/discover" }, ResultSchema);
    expect(result).toMatchObject({
      supportedVersions: ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"],
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: "demo", version: "1.2.3", title: "Demo" },
      instructions: "Use add.",
    });
    await client.close();
  });

  it("answers -32022 for a request whose _meta names an unsupported version", async () => {
    const { client } = await connectSdkClient(make());
    const error = await client
      .request({ method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2030-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } }, ListToolsResultSchema)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: -32022, data: { supported: ["2026-07-28"], requested: "2030-01-01" } });
    const fine = await client.request(
      { method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } },
      ListToolsResultSchema,
    );
    expect(fine.tools).toHaveLength(1);
    await client.close();
  });

  it("reports a summary and closes every session", async () => {
    const s = make();
    const a = await connectSdkClient(s);
    await connectSdkClient(s);
    expect(s.summary()).toEqual({ name: "demo", version: "1.2.3", protocolVersion: "2025-11-25", statelessVersions: ["2026-07-28"], tools: ["add"] });
    expect(s.sessions()).toHaveLength(2);
    await s.close();
    await a.session.closed;
    expect(s.sessions()).toHaveLength(0);
    await expect(s.connect(createSdkBridge().ours)).rejects.toThrow(/server is closed/);
  });
});
