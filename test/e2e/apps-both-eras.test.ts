/**
 * MCP Apps (`io.modelcontextprotocol/ui`) on both eras, with our client's default: over
 * 2025-11-25 the extension is negotiated once per session at `initialize`; over 2026-07-28
 * each request negotiates from its `_meta` client capabilities. Either way a client that
 * declared UI support gets views, tool links and app-only tools, and one that did not gets
 * none of them; over in-memory and Streamable HTTP; and `verify` passes over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Transport } from "@proto/jsonrpc";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createApps, UI_EXTENSION_ID, UI_MIME_TYPE } from "@proto/mcp-apps";
import { verify } from "@proto/mcp-apps/verify";
import { createClient, type Client } from "@proto/mcp-client";
import { createServer, type Server } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";

const VIEW = "ui://weather/dashboard";

function createWeather(): Server {
  const server = createServer({ name: "weather", version: "1.0.0" });
  const apps = createApps(server);
  server.tool({ name: "has_ui", description: "Says whether this client gets UI.", inputSchema: { type: "object" } }, (_args, ctx) => (apps.isServed(ctx) ? "ui" : "text"));
  apps.resource({ uri: VIEW, name: "dashboard", description: "Forecast chart." }, () => "<!doctype html><html><head><title>W</title></head><body></body></html>");
  apps.tool({ name: "forecast", description: "Forecast for a city.", inputSchema: { type: "object" }, ui: { resourceUri: VIEW } }, () => "sunny");
  apps.tool({ name: "refresh", description: "Called by the view.", inputSchema: { type: "object" }, ui: { resourceUri: VIEW, visibility: ["app"] } }, () => "refreshed");
  return server;
}

interface Opened {
  readonly transport: () => Transport;
  readonly stop: () => Promise<void>;
}

const TRANSPORTS: readonly { readonly name: string; open(server: Server): Promise<Opened> }[] = [
  {
    name: "in-memory",
    open: async (server) => ({
      transport: () => {
        const [clientEnd, serverEnd] = createMemoryTransportPair();
        void server.connect(serverEnd);
        return clientEnd;
      },
      stop: async () => {},
    }),
  },
  {
    name: "Streamable HTTP",
    open: async (server) => {
      const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (transport) => server.connect(transport) }));
      const port = await listenLoopback(listener);
      return { transport: () => createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`), stop: () => closeHttp(listener) };
    },
  },
];

const ERAS = [
  { name: "2025-11-25 (pinned)", protocol: "2025-11-25", expected: "2025-11-25" },
  { name: "the client's default", protocol: undefined, expected: "2026-07-28" },
] as const;

describe.each(TRANSPORTS)("MCP Apps over $name", (row) => {
  let server: Server;
  let opened: Opened;
  const clients: Client[] = [];

  beforeAll(async () => {
    server = createWeather();
    opened = await row.open(server);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await opened.stop();
    await server.close();
  });

  async function connect(ui: boolean, protocol: "2025-11-25" | undefined): Promise<Client> {
    const client = createClient({
      info: { name: "host", version: "1" },
      ...(protocol === undefined ? {} : { protocol }),
      ...(ui ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {}),
    });
    clients.push(client);
    await client.connect(opened.transport());
    return client;
  }

  describe.each(ERAS)("in $name", (era) => {
    it("gives a UI client its links, views and app-only tools", async () => {
      const client = await connect(true, era.protocol);
      expect(client.server?.protocolVersion).toBe(era.expected);
      expect(client.server?.capabilities.extensions?.[UI_EXTENSION_ID]).toBeDefined();
      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toEqual(["has_ui", "forecast", "refresh"]);
      expect((await client.callTool("has_ui", {})).content).toEqual([{ type: "text", text: "ui" }]);
      expect(tools[1]?._meta).toMatchObject({ ui: { resourceUri: VIEW } });
      expect((await client.listAllResources()).map((r) => r.uri)).toEqual([VIEW]);
      const read = await client.readResource(VIEW);
      expect(read.contents[0]).toMatchObject({ uri: VIEW, mimeType: UI_MIME_TYPE });
      expect((await client.callTool("refresh", {})).content).toEqual([{ type: "text", text: "refreshed" }]);
    });

    it("gives a client without UI plain tools, no views, and refuses the app-only tool and the view", async () => {
      const client = await connect(false, era.protocol);
      expect(client.server?.protocolVersion).toBe(era.expected);
      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toEqual(["has_ui", "forecast"]);
      expect(tools[1]?._meta).toBeUndefined();
      expect((await client.callTool("has_ui", {})).content).toEqual([{ type: "text", text: "text" }]);
      expect(await client.listAllResources()).toEqual([]);
      await expect(client.readResource(VIEW)).rejects.toMatchObject({ code: -32602, data: { code: "UI_NOT_NEGOTIATED" } });
      await expect(client.callTool("refresh", {})).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/^Unknown tool: refresh/) });
      expect((await client.callTool("forecast", {})).content).toEqual([{ type: "text", text: "sunny" }]);
    });
  });

  it("passes verify with the client's default era", async () => {
    const report = await verify({ transport: opened.transport() });
    expect(report.ok).toBe(true);
    expect(report.findings.filter((f) => f.severity !== "warning" || f.check === "ui/negotiation")).toEqual([]);
    expect(report.views).toEqual([VIEW]);
  });
});
