/**
 * MCP Apps served to the official SDK client (over test/support/sdk-bridge.ts), with and
 * without the extension negotiated.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import type { Server } from "@proto/mcp-server";
import { createSdkBridge } from "../../../test/support/sdk-bridge";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";
import type { AppsOptions } from "./apps-types";
import { createWeather, DASHBOARD_HTML, DASHBOARD_URI } from "./weather.fixture";

const UI_CAPABILITIES = { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } };
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function sdkClient(server: Server, capabilities: Record<string, unknown>): Promise<Client> {
  const bridge = createSdkBridge();
  await server.connect(bridge.ours);
  const client = new Client({ name: "sdk-host", version: "1.0.0" }, { capabilities });
  await client.connect(bridge.sdk);
  return client;
}

function weather(options: AppsOptions = {}) {
  const made = createWeather(options);
  servers.push(made.server);
  return made;
}

async function refusal(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe("a host that negotiated MCP Apps (official SDK client)", () => {
  it("is offered the extension and sees nested _meta.ui with explicit visibility", async () => {
    const client = await sdkClient(weather().server, UI_CAPABILITIES);
    expect(client.getServerCapabilities()?.extensions).toEqual({ [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } });
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t._meta])).toEqual([
      ["forecast", { ui: { resourceUri: DASHBOARD_URI, visibility: ["model", "app"] } }],
      ["refresh", { ui: { resourceUri: DASHBOARD_URI, visibility: ["app"] } }],
      ["ping_weather", undefined],
    ]);
  });

  it("lists the view with its metadata and reads it with the same metadata", async () => {
    const client = await sdkClient(weather().server, UI_CAPABILITIES);
    const ui = { csp: { connectDomains: ["https://api.weather.example"], resourceDomains: ["https://cdn.weather.example"] }, prefersBorder: true };
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      { uri: DASHBOARD_URI, name: "dashboard", title: "Weather dashboard", description: "Forecast chart for one city.", mimeType: UI_MIME_TYPE, _meta: { ui } },
    ]);
    const read = await client.readResource({ uri: DASHBOARD_URI });
    expect(read.contents).toEqual([{ uri: DASHBOARD_URI, mimeType: UI_MIME_TYPE, text: DASHBOARD_HTML, _meta: { ui } }]);
  });

  it("calls linked and app-only tools", async () => {
    const client = await sdkClient(weather().server, UI_CAPABILITIES);
    expect(await client.callTool({ name: "forecast", arguments: { city: "Oslo" } })).toMatchObject({ structuredContent: { city: "Oslo", condition: "sunny" } });
    expect(await client.callTool({ name: "refresh", arguments: {} })).toMatchObject({ structuredContent: { refreshed: true } });
  });

  it("hides app-only tools from tools/list with appOnlyTools: \"hide\", and still serves their calls", async () => {
    const client = await sdkClient(weather({ appOnlyTools: "hide" }).server, UI_CAPABILITIES);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["forecast", "ping_weather"]);
    expect(await client.callTool({ name: "refresh", arguments: {} })).toMatchObject({ structuredContent: { refreshed: true } });
  });
});

describe("a host without MCP Apps (official SDK client)", () => {
  for (const [label, capabilities] of [
    ["declares nothing", {}],
    ["declares the extension without the MIME type", { extensions: { [UI_EXTENSION_ID]: { mimeTypes: ["text/html"] } } }],
  ] as const) {
    it(`${label}: plain tools, no view listed, no extension offered`, async () => {
      const client = await sdkClient(weather().server, capabilities);
      expect(client.getServerCapabilities()?.extensions).toBeUndefined();
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(["forecast", "ping_weather"]);
      expect(tools.every((t) => t._meta === undefined)).toBe(true);
      expect((await client.listResources()).resources).toEqual([]);
    });
  }

  it("is refused reads and subscriptions of the view, with data saying the extension was not negotiated", async () => {
    const client = await sdkClient(weather().server, {});
    const error = await refusal(client.readResource({ uri: DASHBOARD_URI }));
    expect(error.code).toBe(-32602);
    expect(error.data).toMatchObject({ code: "UI_NOT_NEGOTIATED", uri: DASHBOARD_URI, extension: UI_EXTENSION_ID, mimeTypes: [UI_MIME_TYPE] });
    expect((error.data as { repair: string }).repair).toMatch(/capabilities\.extensions/);
    expect((await refusal(client.subscribeResource({ uri: DASHBOARD_URI }))).data).toMatchObject({ code: "UI_NOT_NEGOTIATED" });
  });

  it("cannot call app-only tools, which it never saw", async () => {
    const client = await sdkClient(weather().server, {});
    const error = await refusal(client.callTool({ name: "refresh", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/Unknown tool: refresh/);
    expect(await client.callTool({ name: "forecast", arguments: { city: "Oslo" } })).toMatchObject({ structuredContent: { city: "Oslo" } });
  });

  it('gets UI metadata and views anyway with serve: "always"', async () => {
    const client = await sdkClient(weather({ serve: "always" }).server, {});
    expect(client.getServerCapabilities()?.extensions).toBeUndefined();
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "forecast")?._meta).toEqual({ ui: { resourceUri: DASHBOARD_URI, visibility: ["model", "app"] } });
    expect(tools.find((t) => t.name === "refresh")?._meta).toEqual({ ui: { resourceUri: DASHBOARD_URI, visibility: ["app"] } });
    expect((await client.readResource({ uri: DASHBOARD_URI })).contents[0]).toMatchObject({ text: DASHBOARD_HTML });
  });
});

describe("link integrity (official SDK client)", () => {
  it("answers tools/list with an error naming the tool, the URI and the repair once a linked view is removed", async () => {
    const { server, apps } = weather();
    const client = await sdkClient(server, UI_CAPABILITIES);
    expect((await client.listTools()).tools).toHaveLength(3);
    expect(apps.removeResource(DASHBOARD_URI)).toBe(true);
    const error = await refusal(client.listTools());
    expect(error.code).toBe(-32603);
    expect(error.data).toMatchObject({ code: "UI_BROKEN_LINK", tool: "forecast", resourceUri: DASHBOARD_URI });
    expect((error.data as { links: unknown[] }).links).toEqual([
      expect.objectContaining({ tool: "forecast", resourceUri: DASHBOARD_URI }),
      expect.objectContaining({ tool: "refresh", resourceUri: DASHBOARD_URI }),
    ]);
    expect((error.data as { repair: string }).repair).toMatch(/apps\.resource\(\{ uri: "ui:\/\/weather\/dashboard"/);
    expect(apps.checkLinks()).toMatchObject({ ok: false, problems: [{ tool: "forecast" }, { tool: "refresh" }] });
  });

  it("keeps serving plain tools to hosts without MCP Apps while a link is broken", async () => {
    const { server, apps } = weather();
    apps.removeResource(DASHBOARD_URI);
    const client = await sdkClient(server, {});
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["forecast", "ping_weather"]);
  });

  it("recovers once the view is registered again", async () => {
    const { server, apps } = weather();
    const client = await sdkClient(server, UI_CAPABILITIES);
    apps.removeResource(DASHBOARD_URI);
    await refusal(client.listTools());
    apps.resource({ uri: DASHBOARD_URI, name: "dashboard" }, DASHBOARD_HTML);
    expect((await client.listTools()).tools).toHaveLength(3);
  });
});
