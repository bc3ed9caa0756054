/** Gating and list notifications read from the server's registry: nothing depends on which session listed what, or when. */
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createApps } from "./apps";
import { UI_EXTENSION_ID, UI_MIME_TYPE } from "./constants";

const DOC = "<!doctype html><html></html>";
const OBJECT = { type: "object" } as const;
const servers: Server[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function make() {
  const server = createServer({ name: "t", version: "1" });
  servers.push(server);
  return { server, apps: createApps(server) };
}

/**
 * Behaviour of the initialize era that 2026-07-28 changed (list_changed and resources/updated
 * notifications to a session, -32002 for an unknown resource, per-session hooks): those tests
 * pin 2025-11-25; the rest run with the client's default (2026-07-28 against this server).
 */
const SESSION_ERA = "2025-11-25";

async function connect(server: Server, ui: boolean, protocol?: "2025-11-25"): Promise<Client> {
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = createClient({ info: { name: "host", version: "1" }, ...(protocol === undefined ? {} : { protocol }), ...(ui ? { extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } } : {}) });
  clients.push(client);
  await client.connect(a);
  return client;
}

/** Resolves on the client's next toolsChanged event. */
function toolsChanged(client: Client): Promise<void> {
  return new Promise((resolve) => {
    const stop = client.on("toolsChanged", () => {
      stop();
      resolve();
    });
  });
}

describe("app-only tools are gated by what is registered, whatever was listed", () => {
  it("refuses an app-only server.tool() tool to a session without UI that never listed tools", async () => {
    const { server } = make();
    server.tool({ name: "refresh", inputSchema: OBJECT, _meta: { ui: { visibility: ["app"] } } }, () => "refreshed");
    const plain = await connect(server, false);
    await expect(plain.callTool("refresh")).rejects.toMatchObject({ code: -32602, message: "Unknown tool: refresh; call tools/list for the available tools" });
    const ui = await connect(server, true);
    expect(await ui.callTool("refresh")).toMatchObject({ content: [{ type: "text", text: "refreshed" }] });
  });

  it("serves a plain tool registered under the name of a removed app-only one at once", async () => {
    const { server, apps } = make();
    apps.tool({ name: "refresh", inputSchema: OBJECT, ui: { visibility: ["app"] } }, () => "app");
    const plain = await connect(server, false);
    await expect(plain.callTool("refresh")).rejects.toMatchObject({ code: -32602 });
    server.removeTool("refresh");
    server.tool({ name: "refresh", inputSchema: OBJECT }, () => "plain");
    expect(await plain.callTool("refresh")).toMatchObject({ content: [{ type: "text", text: "plain" }] });
  });
});

describe("tools/list_changed follows the views linked tools point at", () => {
  it("is sent when a linked view is removed, by any means, and again when it comes back", async () => {
    const { server, apps } = make();
    const handle = apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    apps.tool({ name: "show", inputSchema: OBJECT, ui: { resourceUri: "ui://x/view" } }, () => "");
    const ui = await connect(server, true, SESSION_ERA);
    expect((await ui.listAllTools()).map((t) => t.name)).toEqual(["show"]);

    let changed = toolsChanged(ui);
    handle.remove();
    await changed;
    await expect(ui.listAllTools({ refresh: true })).rejects.toMatchObject({ code: -32603, data: { code: "UI_BROKEN_LINK", tool: "show" } });

    changed = toolsChanged(ui);
    apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    await changed;
    expect((await ui.listAllTools({ refresh: true })).map((t) => t.name)).toEqual(["show"]);

    for (const remove of [() => apps.removeResource("ui://x/view"), () => server.removeResource("ui://x/view")]) {
      changed = toolsChanged(ui);
      expect(remove()).toBe(true);
      await changed;
      apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    }
  });

  it("is not sent for a view no tool links to", async () => {
    const { server, apps } = make();
    apps.resource({ uri: "ui://x/lonely", name: "l" }, DOC);
    apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    apps.tool({ name: "show", inputSchema: OBJECT, ui: { resourceUri: "ui://x/view" } }, () => "");
    const ui = await connect(server, true, SESSION_ERA);
    const seen: string[] = [];
    ui.on("toolsChanged", () => void seen.push("tools"));
    const resources = new Promise<void>((resolve) => ui.on("resourcesChanged", () => resolve()));
    apps.removeResource("ui://x/lonely");
    await resources;
    // The resources notification went out after the removal; a tools one would have come with it.
    await ui.ping();
    expect(seen).toEqual([]);
  });
});
