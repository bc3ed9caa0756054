/** The README's gateway example over two children serving the same view URI, seen by the official SDK client. */
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import type { Server } from "@proto/mcp-server";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import { createGateway } from "./gateway-example.fixture";
import { verify } from "./verify";
import { createWeather, DASHBOARD_HTML } from "./weather.fixture";

const UI = { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } };
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function child(server: Server): Promise<Client> {
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = createClient({ info: { name: "gw", version: "1" }, extensions: UI });
  await client.connect(a);
  open.push(server, client);
  return client;
}

async function host(gateway: Server, capabilities: Record<string, unknown>): Promise<SdkClient> {
  const bridge = createSdkBridge();
  await gateway.connect(bridge.ours);
  const client = new SdkClient({ name: "host", version: "1" }, { capabilities });
  await client.connect(bridge.sdk);
  open.push(client);
  return client;
}

describe("the README gateway", () => {
  it("serves two children's identical view URIs apart, links rewritten, reads routed back", async () => {
    const gateway = await createGateway("gw", { north: await child(createWeather().server), south: await child(createWeather().server) });
    open.push(gateway);
    const sdk = await host(gateway, { extensions: UI });
    const north = "ui://gw/north/ui%3A%2F%2Fweather%2Fdashboard";
    const south = "ui://gw/south/ui%3A%2F%2Fweather%2Fdashboard";
    expect((await sdk.listResources()).resources.map((r) => r.uri)).toEqual([north, south]);
    const tools = (await sdk.listTools()).tools;
    expect(tools.find((t) => t.name === "south_forecast")?._meta).toEqual({ ui: { resourceUri: south, visibility: ["model", "app"] } });
    expect(tools.find((t) => t.name === "north_refresh")?._meta).toEqual({ ui: { resourceUri: north, visibility: ["app"] } });
    const read = await sdk.readResource({ uri: south });
    expect(read.contents).toEqual([{ uri: south, mimeType: UI_MIME_TYPE, text: DASHBOARD_HTML, _meta: { ui: expect.objectContaining({ prefersBorder: true }) } }]);
    expect(await sdk.callTool({ name: "north_forecast", arguments: { city: "Tromsø" } })).toMatchObject({ structuredContent: { city: "Tromsø" } });
    expect((await verify({ server: gateway })).findings).toEqual([]);
  });

  it("gives hosts without MCP Apps plain tools and no views", async () => {
    const gateway = await createGateway("gw", { north: await child(createWeather().server) });
    open.push(gateway);
    const sdk = await host(gateway, {});
    expect((await sdk.listResources()).resources).toEqual([]);
    expect((await sdk.listTools()).tools.map((t) => [t.name, t._meta])).toEqual([
      ["north_forecast", undefined],
      ["north_ping_weather", undefined],
    ]);
  });
});
