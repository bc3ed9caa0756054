import { afterEach, describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, raw, serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { AddressInfo } from "node:net";
import { createNodeHttpHandler, createNodeHttpServer } from "./node-adapter";
import type { NodeHttpHandlerOptions } from "./node-adapter";

describe("DNS rebinding protection on a loopback bind (real sockets)", () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}): Promise<Running> {
    running = await serve({ connect: createEchoServer().connect, ...options });
    return running;
  }

  function init(r: Running, headers: Record<string, string>) {
    return raw(r.port, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body: initBody() });
  }

  it.each([
    ["a foreign Host", { host: "evil.example.com" }],
    ["a foreign Host with a port", { host: "evil.example.com:8080" }],
    ["a foreign Origin", { host: "127.0.0.1", origin: "http://evil.example.com" }],
    ["the conformance attack (Host and Origin evil)", { host: "evil.example.com", origin: "http://evil.example.com" }],
    ["Origin: null", { host: "localhost", origin: "null" }],
    ["an unparseable Origin", { host: "localhost", origin: "::not a url::" }],
    ["a non-http Origin", { host: "localhost", origin: "file://localhost" }],
    ["a loopback-looking suffix", { host: "127.0.0.1.evil.example.com" }],
  ])("refuses %s with 403", async (_name, headers) => {
    const r = await start();
    const answer = await init(r, headers as Record<string, string>);
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ id: null, error: { message: expect.stringContaining("forbidden") } });
    expect(r.handler.sessionCount).toBe(0);
  });

  it.each([
    ["127.0.0.1 with its port", (port: number) => ({ host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` })],
    ["localhost", (port: number) => ({ host: `localhost:${port}`, origin: `http://localhost:${port}` })],
    ["[::1]", (port: number) => ({ host: `[::1]:${port}` })],
    ["no Origin (a non-browser client)", (port: number) => ({ host: `127.0.0.1:${port}` })],
  ])("accepts %s", async (_name, headers) => {
    const r = await start();
    const answer = await init(r, headers(r.port));
    expect(answer.status).toBe(200);
  });

  it("never serves a request without Host (node:http refuses it with 400 before the handler runs)", async () => {
    const r = await start();
    const answer = await init(r, {});
    expect(answer.status).toBe(400);
    expect(r.handler.sessionCount).toBe(0);
  });

  it("honours allow-lists: extra hosts and origins are accepted, others still refused", async () => {
    const r = await start({ hostCheck: { allowedHosts: ["mcp.internal", "127.0.0.1"], allowedOrigins: ["https://app.example.com"] } });
    expect((await init(r, { host: "mcp.internal:443", origin: "https://app.example.com" })).status).toBe(200);
    expect((await init(r, { host: "mcp.internal", origin: "http://localhost" })).status).toBe(403);
    expect((await init(r, { host: "localhost" })).status).toBe(403);
  });

  it("applies to every method, not only POST", async () => {
    const r = await start();
    expect((await raw(r.port, { method: "GET", headers: { host: "evil.example.com", accept: "text/event-stream" } })).status).toBe(403);
    expect((await raw(r.port, { method: "DELETE", headers: { host: "evil.example.com" } })).status).toBe(403);
  });

  it("can be disabled explicitly", async () => {
    const r = await start({ hostCheck: false });
    expect((await init(r, { host: "evil.example.com" })).status).toBe(200);
  });
});

describe("a wildcard bind (0.0.0.0) without allowedHosts", () => {
  it("warns through the logger at start and still checks Host on every interface", async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message), error: () => undefined };
    const handler = createNodeHttpHandler({ connect: createEchoServer().connect, logger });
    const server = createNodeHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
    try {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain("0.0.0.0");
      expect(warnings[0]).toContain("hostCheck.allowedHosts");
      const { port } = server.address() as AddressInfo;
      const rebound = await raw(port, { method: "POST", headers: { ...POST_HEADERS, host: `rebind.example.com:${port}` }, body: initBody() });
      expect(rebound.status).toBe(403);
      const local = await raw(port, { method: "POST", headers: { ...POST_HEADERS, host: `127.0.0.1:${port}` }, body: initBody() });
      expect(local.status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("does not warn when allowedHosts names the server", async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => warnings.push(message), error: () => undefined };
    const handler = createNodeHttpHandler({ connect: createEchoServer().connect, logger, hostCheck: { allowedHosts: ["mcp.example.com"] } });
    const server = createNodeHttpServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "0.0.0.0", resolve));
    server.close();
    expect(warnings).toEqual([]);
  });
});
