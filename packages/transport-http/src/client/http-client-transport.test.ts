import { afterEach, describe, expect, it } from "vitest";
import type { HttpClientEvent } from "./options";
import { createHttpClientTransport } from "./http-client-transport";
import { callText, drive, initialize } from "./testing/drive";
import { startSdkLegacyServer, startSdkStreamableServer } from "./testing/sdk-servers";
import type { FixtureServer } from "./testing/sdk-servers";
import { startScripted } from "./testing/http-fixture";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createHttpClientTransport", () => {
  it("falls back to the official SDK's legacy HTTP+SSE server when the initialize POST is answered 405", async () => {
    server = await startSdkLegacyServer();
    const events: HttpClientEvent[] = [];
    const transport = createHttpClientTransport(server.url, { onEvent: (e) => events.push(e) });
    const { peer, logs } = await drive(transport);
    const init = await initialize(peer, "2024-11-05");
    expect(init.protocolVersion).toBe("2024-11-05");
    expect(transport.kind).toBe("sse");
    expect(transport.protocolVersion).toBeUndefined();
    expect(events).toContainEqual({ type: "fallback", status: 405 });
    expect(await callText(peer, "chatty")).toBe("done");
    expect(logs).toEqual(["step 1", "step 2", "step 3"]);
    expect(server.seen.some((r) => r.method === "POST" && r.path.startsWith("/messages?sessionId="))).toBe(true);
    await peer.close();
  });

  it("stays on Streamable HTTP when the server speaks it", async () => {
    server = await startSdkStreamableServer();
    const transport = createHttpClientTransport(server.url, { standaloneStream: false });
    const { peer } = await drive(transport);
    await initialize(peer);
    expect(transport.kind).toBe("streamable-http");
    expect(transport.sessionId).toBeDefined();
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(await callText(peer, "hello")).toBe("hello");
    await peer.close();
  });

  it("does not fall back on other statuses, and says what the server answered", async () => {
    const scripted = await startScripted((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "database down" } }));
    });
    try {
      const transport = createHttpClientTransport(scripted.url);
      const { peer } = await drive(transport);
      await expect(initialize(peer)).rejects.toThrow(/answered 500.*-32603 "database down".*retry later/);
      expect(transport.kind).toBeUndefined();
      await peer.close();
    } finally {
      await scripted.close();
    }
  });

  it("says both what the POST got and why the legacy fallback failed, and closes once", async () => {
    const scripted = await startScripted((_req, res) => {
      res.writeHead(404, { "content-type": "text/plain" }).end("no such thing");
    });
    try {
      const transport = createHttpClientTransport(scripted.url);
      const { peer } = await drive(transport);
      await expect(initialize(peer)).rejects.toThrow(/POST .* answered 404.*the legacy HTTP\+SSE fallback failed too: GET .* answered 404/);
      expect(transport.kind).toBeUndefined();
      await peer.close();
      expect(await peer.closed).toBeUndefined();
      const direct = createHttpClientTransport(scripted.url);
      await direct.start({ payload: () => undefined, error: () => undefined, closed: () => undefined });
      const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } } as const;
      await expect(direct.send(init)).rejects.toMatchObject({ name: "HttpClientError", code: "FALLBACK_FAILED", status: 404 });
      await direct.close();
    } finally {
      await scripted.close();
    }
  });

  it("does not fall back when disabled", async () => {
    server = await startSdkLegacyServer();
    const transport = createHttpClientTransport(server.url, { fallback: false });
    const { peer } = await drive(transport);
    await expect(initialize(peer, "2024-11-05")).rejects.toMatchObject({ code: "HTTP_STATUS", status: 405 });
    await peer.close();
  });
});
