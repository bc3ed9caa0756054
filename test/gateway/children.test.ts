/**
 * The gateway in front of real children of other implementations, as processes: the
 * official server-everything from npm, a server built with the official SDK v1 `McpServer`,
 * a server built with the official ext-apps helpers (nested and flat `_meta` keys, a view it
 * does not list), our own everything example; legacy HTTP+SSE children (the official SDK's
 * SSE server); and an HTTP child on 127.0.0.1 that checks the upstream client's credentials
 * never reach it.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import { createClient } from "@proto/mcp-client";
import type { Client } from "@proto/mcp-client";
import { createGateway } from "@proto/mcp-gateway";
import type { Gateway, GatewayOptions } from "@proto/mcp-gateway";
import { createStdioSpawner } from "@proto/mcp-gateway/node";
import { createServer } from "@proto/mcp-server";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback, REPO_ROOT } from "../support/e2e-transports";
import { startSdkLegacySseServer } from "../support/sdk-legacy-sse";
import { createSdkScenario } from "../support/sdk-scenario-server";

const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
const TSX = { cwd: REPO_ROOT, env: { TSX_TSCONFIG_PATH: `${REPO_ROOT}tsconfig.json` } };
const tsx = (file: string): string[] => [process.execPath, "--import", "tsx", fileURLToPath(new URL(file, import.meta.url))];
const EVERYTHING = join(REPO_ROOT, "examples/everything/dist/server.js");
const everythingBin = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function serve(options: Omit<GatewayOptions, "name">, ui = true): Promise<{ gateway: Gateway; host: Client }> {
  const gateway = createGateway({ name: "gw", stdio: createStdioSpawner(), readyTimeoutMs: 20_000, ...options });
  open.push(gateway);
  await gateway.start();
  const [a, b] = createMemoryTransportPair();
  await gateway.connect(b);
  const host = createClient({ info: { name: "host", version: "1" }, ...(ui ? { extensions: UI } : {}) });
  await host.connect(a);
  open.push(host);
  return { gateway, host };
}

describe("gateway children of other implementations", () => {
  it("serves the official server-everything (npm) and an SDK v1 McpServer side by side", async () => {
    const { host, gateway } = await serve({
      children: { everything: { command: [process.execPath, everythingBin, "stdio"] }, sdk: { command: tsx("../interop/fixtures/sdk-scenario-stdio.ts"), ...TSX } },
    });
    expect(gateway.status().map((s) => [s.name, s.state])).toEqual([["everything", "ready"], ["sdk", "ready"]]);
    const tools = (await host.listAllTools()).map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["everything__echo", "everything__get-sum", "sdk__echo"]));
    expect(tools.every((n) => /^[A-Za-z0-9_-]{1,64}$/.test(n))).toBe(true);
    expect(await host.callTool("everything__get-sum", { a: 2, b: 3 })).toMatchObject({ content: [{ type: "text", text: expect.stringContaining("5") }] });
    expect(await host.callTool("sdk__echo", { text: "hi" })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    const resources = await host.listAllResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources.find((r) => r.uri.startsWith("everything+"));
    expect(first).toBeDefined();
    expect((await host.readResource((first as { uri: string }).uri)).contents[0]?.uri).toBe(first?.uri);
    expect((await host.listAllPrompts()).map((p) => p.name)).toEqual(expect.arrayContaining(["everything__simple-prompt"]));
  });

  it("serves our everything example (a 2026-07-28 child) to a 2025-11-25 host: calls, sampling relayed, the view and its app-only tool", async () => {
    const { host, gateway } = await serve({ children: { every: { command: [process.execPath, EVERYTHING, "--stdio"] } } });
    expect(gateway.status()).toMatchObject([{ name: "every", state: "ready" }]);
    await host.close();
    const [a, b] = createMemoryTransportPair();
    await gateway.connect(b);
    const old = createClient({
      info: { name: "host", version: "1" },
      protocol: "2025-11-25",
      extensions: UI,
      sampling: { createMessage: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "sampled" } }) },
    });
    await old.connect(a);
    open.push(old);
    const tools = await old.listAllTools();
    expect(tools.find((t) => t.name === "every__show_dashboard")?._meta?.ui).toMatchObject({ resourceUri: "ui://gw/every/ui%3A%2F%2Feverything%2Fdashboard" });
    expect(tools.find((t) => t.name === "every__dashboard_refresh")?._meta?.ui).toMatchObject({ visibility: ["app"] });
    // The child's own stamps of 2026-07-28 (resultType, its serverInfo) stay on the child's side of the gateway.
    expect(await old.callTool("every__test_simple_text")).toEqual({ content: [{ type: "text", text: "This is a simple text response for testing." }] });
    expect(await old.callTool("every__test_sampling", { prompt: "p" })).toMatchObject({ content: [{ type: "text", text: expect.stringContaining("sampled") }] });
    expect((await old.callTool("dashboard_refresh")).isError).not.toBe(true);
    expect((await old.readResource("ui://gw/every/ui%3A%2F%2Feverything%2Fdashboard")).contents[0]).toMatchObject({ mimeType: "text/html;profile=mcp-app" });
  });

  it("routes a child built with the official ext-apps helpers: links rewritten, domain dropped, app-only tool kept from the model, the view's bare-named call routed", async () => {
    const { host } = await serve({ children: { weather: { command: tsx("./fixtures/ext-apps-stdio.ts"), ...TSX } } });
    const view = "ui://gw/weather/ui%3A%2F%2Fweather%2Fview.html";
    const hidden = "ui://gw/weather/ui%3A%2F%2Fweather%2Fhidden.html";
    const tools = await host.listAllTools();
    expect(tools.find((t) => t.name === "weather__forecast")?._meta).toEqual({ ui: { resourceUri: view, visibility: ["model", "app"] }, "ui/resourceUri": view });
    expect(tools.find((t) => t.name === "weather__refresh")?._meta).toEqual({ ui: { resourceUri: hidden, visibility: ["app"] }, "ui/resourceUri": hidden });
    const read = await host.readResource(view);
    expect(read.contents[0]).toMatchObject({ uri: view, mimeType: "text/html;profile=mcp-app", _meta: { ui: { prefersBorder: true } } });
    expect((read.contents[0]?._meta?.ui as { domain?: string }).domain).toBeUndefined();
    expect((await host.readResource(hidden)).contents[0]?.uri).toBe(hidden);
    // The view calls its app-only tool by the child's own name, as ext-apps views do.
    expect(await host.callTool("refresh")).toMatchObject({ content: [{ text: "refreshed 1" }] });
    expect(await host.callTool("weather__forecast", { city: "Oslo" })).toMatchObject({ structuredContent: { city: "Oslo" } });
  });

  it("never shows that child's app-only tool to a host without MCP Apps, under any name", async () => {
    const { host } = await serve({ children: { weather: { command: tsx("./fixtures/ext-apps-stdio.ts"), ...TSX } } }, false);
    expect((await host.listAllTools()).map((t) => [t.name, t._meta])).toEqual([["weather__forecast", undefined]]);
    await expect(host.callTool("refresh")).rejects.toMatchObject({ code: -32602 });
    await expect(host.callTool("weather__refresh")).rejects.toMatchObject({ code: -32602 });
  });

  it("sends an HTTP child only its own configured credential, never the upstream client's", async () => {
    const seen: (string | undefined)[] = [];
    const childServer = createServer({ name: "remote", version: "1" });
    childServer.tool({ name: "whoami", inputSchema: { type: "object" } }, (_a, ctx) => ctx.principal?.subject ?? "nobody");
    const handler = createNodeHttpHandler({
      connect: (t) => childServer.connect(t),
      authenticate: (request) => {
        const auth = request.headers.get("authorization") ?? undefined;
        seen.push(auth);
        return auth === "Bearer child-token" ? { subject: "gateway", scopes: [], claims: {} } : undefined;
      },
    });
    const listener = createNodeHttpServer(handler);
    const port = await listenLoopback(listener);
    open.push({ close: () => closeHttp(listener) }, childServer);
    process.env.GW_TEST_CHILD_TOKEN = "child-token";
    const gateway = createGateway({ name: "gw", children: { remote: { url: `http://127.0.0.1:${port}/mcp`, auth: { bearerEnv: "GW_TEST_CHILD_TOKEN" } } } });
    open.push(gateway);
    // The upstream reaches the gateway over HTTP with a credential of its own.
    const upstreamHttp = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => gateway.connect(t), authenticate: (r) => (r.headers.get("authorization") === "Bearer upstream-token" ? { subject: "host", scopes: [], claims: {} } : undefined) }));
    const upstreamPort = await listenLoopback(upstreamHttp);
    open.push({ close: () => closeHttp(upstreamHttp) });
    const { createHttpClientTransport, staticToken } = await import("@proto/transport-http");
    const host = createClient({ info: { name: "host", version: "1" } });
    await host.connect(createHttpClientTransport(`http://127.0.0.1:${upstreamPort}/mcp`, { auth: staticToken("upstream-token") }));
    open.push(host);
    expect(await host.callTool("remote__whoami")).toMatchObject({ content: [{ text: "gateway" }] });
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set(["Bearer child-token"]));
  });

  it("reaches legacy HTTP+SSE children (the official SDK's SSE server), by type \"sse\" and by falling back from Streamable HTTP", async () => {
    const legacy = await startSdkLegacySseServer(createSdkScenario("legacy"));
    open.push({ close: () => legacy.stop() });
    const { host, gateway } = await serve({ children: { pinned: { url: legacy.url, type: "sse" }, fallback: { url: legacy.url } } }, false);
    expect(gateway.status().map((s) => [s.name, s.state])).toEqual([["pinned", "ready"], ["fallback", "ready"]]);
    expect(await host.callTool("pinned__echo", { text: "one" })).toMatchObject({ content: [{ type: "text", text: "one" }] });
    expect(await host.callTool("fallback__echo", { text: "two" })).toMatchObject({ content: [{ type: "text", text: "two" }] });
  });

  it("names an HTTP child that refuses the gateway's credential as an auth failure with its repair", async () => {
    const childServer = createServer({ name: "remote", version: "1" });
    const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => childServer.connect(t), authenticate: () => undefined }));
    const port = await listenLoopback(listener);
    open.push({ close: () => closeHttp(listener) });
    const gateway = createGateway({ name: "gw", readyTimeoutMs: 5_000, restart: { maxCrashes: 1 }, children: { remote: { url: `http://127.0.0.1:${port}/mcp`, auth: { bearer: "wrong" } } } });
    open.push(gateway);
    await gateway.start();
    expect(gateway.status()[0]).toMatchObject({ name: "remote", state: "failed", error: expect.stringMatching(/401/) });
  });
});
