/**
 * What @proto/mcp-apps can and cannot guarantee with @proto/mcp-server's public extension
 * API today. The passing tests guard the wire-level behaviour built on the public hooks;
 * the `it.fails` tests describe hooks the server does not offer yet, and start failing (so
 * they get turned into plain tests) the day it does:
 *
 * 1. A registration guard: `server.resource()` / `resourceTemplate()` cannot be stopped from
 *    claiming `ui://`; @proto/mcp-apps can only keep such resources off the wire.
 * 2. Registry visibility: an extension cannot enumerate registered tool descriptors (with
 *    `_meta`) nor observe `server.removeResource()`. A tool linked with `server.tool()` is
 *    known to the link check only from the first `tools/list`; a view removed with
 *    `server.removeResource()` instead of `apps.removeResource()` is still believed present.
 *    Wanted: e.g. `ServerExtension.registered?(kind, item)` / `removed?(kind, key)` hooks, or
 *    a read-only `server.registry()` view.
 */
import { describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createApps, UI_EXTENSION_ID, UI_MIME_TYPE } from "@proto/mcp-apps";
import { createClient } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";

const DOC = "<!doctype html><html></html>";

async function uiClient(server: ReturnType<typeof createServer>) {
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = createClient({ protocol: "2025-11-25", info: { name: "host", version: "1" }, extensions: { [UI_EXTENSION_ID]: { mimeTypes: [UI_MIME_TYPE] } } });
  await client.connect(a);
  return client;
}

describe("mcp-apps on the public extension API", () => {
  it("keeps a ui:// resource registered with server.resource() off the wire (listing and reading)", async () => {
    const server = createServer({ name: "s", version: "1" });
    createApps(server);
    server.resource({ uri: "ui://sneaky/view", name: "v", mimeType: UI_MIME_TYPE }, () => DOC);
    const client = await uiClient(server);
    expect(await client.listAllResources()).toEqual([]);
    await expect(client.readResource("ui://sneaky/view")).rejects.toMatchObject({ code: -32002, data: { code: "UI_NOT_REGISTERED" } });
    await client.close();
    await server.close();
  });

  it.fails("wanted: server.resource() refuses ui:// at registration once MCP Apps is installed", () => {
    const server = createServer({ name: "s", version: "1" });
    createApps(server);
    expect(() => server.resource({ uri: "ui://sneaky/view", name: "v" }, () => DOC)).toThrow(TypeError);
  });

  it.fails("wanted: the start-up link check sees a tool linked with server.tool() before any tools/list", () => {
    const server = createServer({ name: "s", version: "1" });
    const apps = createApps(server);
    server.tool({ name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://x/missing" } } }, () => "");
    expect(apps.checkLinks().ok).toBe(false);
  });

  it.fails("wanted: the link check sees a view removed with server.removeResource()", () => {
    const server = createServer({ name: "s", version: "1" });
    const apps = createApps(server);
    apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    apps.tool({ name: "show", inputSchema: { type: "object" }, ui: { resourceUri: "ui://x/view" } }, () => "");
    server.removeResource("ui://x/view");
    expect(apps.checkLinks().ok).toBe(false);
  });
});
