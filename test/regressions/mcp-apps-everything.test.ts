/** The everything server's MCP Apps view passes `verify`, and hosts without MCP Apps keep the conformance surface. */
import { describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import { verify } from "@proto/mcp-apps/verify";
import { DASHBOARD_URI } from "../../examples/everything/src/apps";
import { createEverythingServer } from "../../examples/everything/src/everything-server";

describe("examples/everything serves the MCP Apps dashboard (stdio and HTTP alike)", () => {
  it("passes verify with no finding", async () => {
    const everything = createEverythingServer({ watchedIntervalMs: 0 });
    const report = await verify({ server: everything.server });
    await everything.close();
    expect(report.findings).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.views).toEqual([DASHBOARD_URI]);
    expect(report.tools).toEqual(["dashboard_refresh", "show_dashboard"]);
  });

  it("shows hosts without MCP Apps a plain show_dashboard, no view and no app-only tool", async () => {
    const everything = createEverythingServer({ watchedIntervalMs: 0 });
    const [a, b] = createMemoryTransportPair();
    await everything.server.connect(b);
    const client = createClient({ protocol: "2025-11-25", info: { name: "plain", version: "1" } });
    await client.connect(a);
    const tools = await client.listAllTools();
    expect(tools.find((t) => t.name === "show_dashboard")?._meta).toBeUndefined();
    expect(tools.some((t) => t.name === "dashboard_refresh")).toBe(false);
    expect((await client.listAllResources()).some((r) => r.uri === DASHBOARD_URI)).toBe(false);
    expect(await client.callTool("show_dashboard")).toMatchObject({ structuredContent: { calls: 1 } });
    await client.close();
    await everything.close();
  });
});
