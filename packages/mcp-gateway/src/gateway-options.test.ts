import { afterEach, describe, expect, it } from "vitest";
import type { Meta } from "@proto/mcp-protocol";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { createGateway } from "./gateway";
import type { GatewayOptions } from "./types";
import { createAppChild, createToolsOnlyChild, inMemory, inMemory2025, upstream } from "./testing/children";
import { waitFor } from "./testing/wait";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

function gatewayOf(options: Omit<GatewayOptions, "name">) {
  const gateway = createGateway({ name: "gw", ...options });
  open.push(gateway);
  return gateway;
}

function counted(server: Server): { transport: () => Promise<import("@proto/jsonrpc").Transport>; starts: () => number } {
  let n = 0;
  const make = inMemory(server);
  return { transport: () => (n++, make()), starts: () => n };
}

describe("gateway options", () => {
  it("reproduces the reference's dotted names with separator '.'", async () => {
    const gateway = gatewayOf({ separator: ".", children: { taskman: { transport: inMemory(createToolsOnlyChild()) } } });
    const host = await upstream(gateway);
    open.push(host);
    expect((await host.listAllTools()).map((t) => t.name)).toEqual(["taskman.add"]);
    expect(await host.callTool("taskman.add", { a: 1, b: 2 })).toMatchObject({ structuredContent: { sum: 3 } });
    expect(() => createGateway({ name: "gw", separator: ".", nameStyle: "provider", children: {} })).toThrow(/needs nameStyle "spec"/);
  });

  it("refuses bad names and stdio children without a spawner, saying what to do", () => {
    expect(() => createGateway({ name: "GW", children: {} })).toThrow(/lowercase DNS label/);
    expect(() => createGateway({ name: "gw", children: { my_server: { transport: inMemory(createToolsOnlyChild()) } } })).toThrow(/no '_' or '.'/);
    expect(() => createGateway({ name: "gw", children: { a: { command: "x" } } })).toThrow(/createStdioSpawner|stdioTransport|@proto\/mcp-gateway\/node/);
  });

  it("keeps disabled children stopped, fails start() for a required child that cannot start, and filters prompts and resources", async () => {
    const off = counted(createToolsOnlyChild());
    const gateway = gatewayOf({
      restart: { maxCrashes: 1 },
      children: {
        off: { transport: off.transport, disabled: true },
        app: { transport: inMemory(createAppChild("app")), prompts: { deny: ["*"] }, resources: { allow: ["file:*"] } },
        must: { transport: () => Promise.reject(new Error("cannot reach it")), required: true },
      },
    });
    await expect(gateway.start()).rejects.toThrow(/cannot reach it/);
    expect(off.starts()).toBe(0);
    await waitFor(() => gateway.status().find((s) => s.name === "app")?.state === "ready");
    expect(gateway.status().map((s) => [s.name, s.state])).toEqual([["off", "disabled"], ["app", "ready"], ["must", "failed"]]);
    const host = await upstream(gateway);
    open.push(host);
    expect(await host.listAllPrompts()).toEqual([]);
    expect((await host.listAllResources()).map((r) => r.uri)).toEqual(["app+file:///notes.txt"]);
  });

  it("serves 2026-07-28 requests in isolated mode from one shared set of children, not a set per request", async () => {
    const child = counted(createToolsOnlyChild());
    const gateway = gatewayOf({ sessions: "isolated", children: { calc: { transport: child.transport } } });
    const modern = await upstream(gateway, { protocol: "2026-07-28" });
    open.push(modern);
    expect((await modern.listAllTools()).map((t) => t.name)).toEqual(["calc__add"]);
    // Over stateless HTTP every request is a connection of its own: a second one here.
    const again = await upstream(gateway, { protocol: "2026-07-28" });
    open.push(again);
    expect(await again.callTool("calc__add", { a: 1, b: 1 })).toMatchObject({ structuredContent: { sum: 2 } });
    expect(child.starts()).toBe(1);
    // A 2025-11-25 session still gets children of its own.
    const old = await upstream(gateway, { protocol: "2025-11-25" });
    open.push(old);
    expect((await old.listAllTools()).map((t) => t.name)).toEqual(["calc__add"]);
    expect(child.starts()).toBe(2);
  });

  it("stops a lazy child when idle and starts it again on the next call", async () => {
    const lazy = counted(createToolsOnlyChild());
    const gateway = gatewayOf({ children: { calc: { transport: lazy.transport, lifecycle: "lazy", idleTimeoutMs: 50 } } });
    await gateway.start();
    const host = await upstream(gateway);
    open.push(host);
    await waitFor(() => gateway.status()[0]?.state === "stopped");
    expect((await host.listAllTools()).map((t) => t.name)).toEqual(["calc__add"]);
    expect(await host.callTool("calc__add", { a: 2, b: 2 })).toMatchObject({ structuredContent: { sum: 4 } });
    expect(lazy.starts()).toBe(2);
  });

});

describe.each(["2025-11-25", "2026-07-28"] as const)("gateway forwarding to a %s upstream", (protocol) => {
  it("forwards _meta (trace context), tags child logs, and rewrites resource updates for subscribers", async () => {
    const child = createServer({ name: "c", version: "1" }, { capabilities: { resources: { subscribe: true } } });
    let seen: Meta | undefined;
    child.tool({ name: "traced", inputSchema: { type: "object" } }, async (_args, ctx) => {
      seen = ctx.meta;
      await ctx.log("warning", "careful", "engine");
      return "ok";
    });
    child.resource({ uri: "file:///watched", name: "watched" }, () => "v1");
    const gateway = gatewayOf({ children: { svc: { transport: inMemory(child) } } });
    const host = await upstream(gateway, { protocol });
    open.push(host);
    const logs: unknown[] = [];
    const updates: string[] = [];
    host.on("log", (entry) => logs.push(entry));
    host.on("resourceUpdated", ({ uri }) => updates.push(uri));
    // 2026-07-28 requests carry it as `_meta` logLevel; 2025-11-25 sends logging/setLevel.
    await host.setLoggingLevel("info");
    await host.callTool("svc__traced", {}, { meta: { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" } });
    expect(seen).toMatchObject({ traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01" });
    await waitFor(() => logs.length > 0);
    expect(logs[0]).toEqual({ level: "warning", logger: "svc/engine", data: "careful" });
    // 2025-11-25: resources/subscribe; 2026-07-28: the URI joins the client's subscriptions/listen stream.
    await host.subscribe("svc+file:///watched");
    // The gateway subscribes the child once the listen stream is acknowledged: update until one arrives.
    await waitFor(() => (child.resourceUpdated("file:///watched"), updates.length > 0));
    expect(new Set(updates)).toEqual(new Set(["svc+file:///watched"]));
    await host.unsubscribe("svc+file:///watched");
  });

  it("sends a child's logs outside a request to 2025-11-25 sessions, and to the gateway's logger for a stateless upstream", async () => {
    // A 2025-11-25 child: it can log outside a request (a 2026-07-28 one logs on requests only).
    const child = createServer({ name: "c", version: "1" });
    child.tool({ name: "t", inputSchema: { type: "object" } }, () => "ok");
    const warned: string[] = [];
    const gateway = gatewayOf({ logger: { warn: (text) => warned.push(text), error: (text) => warned.push(text) }, children: { svc: { transport: inMemory2025(child) } } });
    const host = await upstream(gateway, { protocol });
    open.push(host);
    const logs: unknown[] = [];
    host.on("log", (entry) => logs.push(entry));
    await host.setLoggingLevel("info");
    await host.listAllTools();
    expect(child.sessions().map((s) => s.protocolVersion)).toEqual(["2025-11-25"]);
    child.broadcastLog("warning", "disk almost full");
    if (protocol === "2025-11-25") {
      await waitFor(() => logs.length > 0);
      expect(logs).toEqual([{ level: "warning", logger: "svc", data: "disk almost full" }]);
      expect(warned.filter((w) => w.includes("disk"))).toEqual([]);
    } else {
      await waitFor(() => warned.some((w) => w.includes("disk almost full")));
      expect(warned.find((w) => w.includes("disk"))).toBe("gateway: child log (svc, warning) outside a request: disk almost full");
      expect(logs).toEqual([]);
    }
  });
});
