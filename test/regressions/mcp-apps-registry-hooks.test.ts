/**
 * @proto/mcp-apps on @proto/mcp-server's public extension API: what the registry hooks
 * (`installed` with its read-only registry, `registering`, `removed`) let it guarantee.
 * Before those hooks an extension could not refuse a registration nor see tools and
 * removals it did not make itself, and mirrored what it could see.
 */
import { describe, expect, it } from "vitest";
import { createApps, UI_MIME_TYPE } from "@proto/mcp-apps";
import { createServer } from "@proto/mcp-server";

const DOC = "<!doctype html><html></html>";

describe("mcp-apps on the public extension API", () => {
  it("server.resource() refuses ui:// at registration once MCP Apps is installed", () => {
    const server = createServer({ name: "s", version: "1" });
    createApps(server);
    expect(() => server.resource({ uri: "ui://sneaky/view", name: "v", mimeType: UI_MIME_TYPE }, () => DOC)).toThrow(TypeError);
    expect(server.removeResource("ui://sneaky/view")).toBe(false);
  });

  it("the start-up link check sees a tool linked with server.tool() before any tools/list", () => {
    const server = createServer({ name: "s", version: "1" });
    const apps = createApps(server);
    server.tool({ name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://x/missing" } } }, () => "");
    expect(apps.checkLinks().ok).toBe(false);
  });

  it("the link check sees a view removed with server.removeResource()", () => {
    const server = createServer({ name: "s", version: "1" });
    const apps = createApps(server);
    apps.resource({ uri: "ui://x/view", name: "v" }, DOC);
    apps.tool({ name: "show", inputSchema: { type: "object" }, ui: { resourceUri: "ui://x/view" } }, () => "");
    expect(apps.checkLinks().ok).toBe(true);
    server.removeResource("ui://x/view");
    expect(apps.checkLinks().ok).toBe(false);
  });
});
