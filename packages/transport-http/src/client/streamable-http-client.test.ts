import { afterEach, describe, expect, it } from "vitest";
import type { HttpClientEvent } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { callText, drive, initialize, until } from "./testing/drive";
import { startSdkStreamableServer } from "./testing/sdk-servers";
import type { FixtureServer } from "./testing/sdk-servers";
import { startScriptedMcp } from "./testing/scripted-mcp";
import type { ScriptedMcp } from "./testing/scripted-mcp";

let server: FixtureServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const modes = [
  { name: "stateful, SSE", stateless: false, json: false },
  { name: "stateful, JSON", stateless: false, json: true },
  { name: "stateless, SSE", stateless: true, json: false },
  { name: "stateless, JSON", stateless: true, json: true },
] as const;

describe("against the official SDK's Streamable HTTP server", () => {
  for (const mode of modes) {
    it(`initializes, calls tools and receives related notifications (${mode.name})`, async () => {
      server = await startSdkStreamableServer({ stateless: mode.stateless, json: mode.json });
      const transport = createStreamableHttpClientTransport(server.url, { standaloneStream: !mode.stateless });
      const { peer, logs } = await drive(transport);
      const init = await initialize(peer);
      expect(init.protocolVersion).toBe("2025-11-25");
      expect(transport.protocolVersion).toBe("2025-11-25");
      expect(transport.sessionId === undefined).toBe(mode.stateless);
      expect(await callText(peer, "hello")).toBe("hello");
      expect(await callText(peer, "chatty")).toBe("done");
      // In JSON mode the SDK server has no stream to send notifications related to a call on.
      if (!mode.json) expect(logs).toEqual(["step 1", "step 2", "step 3"]);
      const posts = server.seen.filter((r) => r.method === "POST");
      expect(posts[0]?.headers["mcp-protocol-version"]).toBeUndefined();
      expect(posts[0]?.headers.accept).toBe("application/json, text/event-stream");
      for (const later of posts.slice(1)) {
        expect(later.headers["mcp-protocol-version"]).toBe("2025-11-25");
        expect(later.headers["mcp-session-id"]).toBe(transport.sessionId);
      }
      await peer.close();
      if (!mode.stateless) expect(server.seen.some((r) => r.method === "DELETE")).toBe(true);
    });
  }

  it("opens the standalone GET stream after initialization", async () => {
    server = await startSdkStreamableServer();
    const transport = createStreamableHttpClientTransport(server.url);
    const opened = until<HttpClientEvent>(transport.subscribe, (e) => e.type === "standalone-stream");
    const { peer } = await drive(transport);
    await initialize(peer);
    expect(await opened).toEqual({ type: "standalone-stream", state: "open" });
    const get = server.seen.find((r) => r.method === "GET");
    expect(get?.headers.accept).toBe("text/event-stream");
    expect(get?.headers["mcp-session-id"]).toBe(transport.sessionId);
    await peer.close();
  });

  it("re-initializes transparently when the session expires (404) and raises an event", async () => {
    server = await startSdkStreamableServer();
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(server.url, { onEvent: (e) => events.push(e), standaloneStream: false });
    const { peer } = await drive(transport);
    await initialize(peer);
    const first = transport.sessionId;
    server.expireSessions();
    expect(await callText(peer, "hello")).toBe("hello");
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(first);
    const reinit = events.find((e) => e.type === "reinitialized");
    expect(reinit).toEqual({ type: "reinitialized", previousSessionId: first, sessionId: transport.sessionId, protocolVersion: "2025-11-25" });
    expect(server.seen.filter((r) => r.method === "POST" && r.headers["mcp-session-id"] === undefined)).toHaveLength(2);
    await peer.close();
  });

  it("resumes a POST stream the server closed early (SSE polling), honouring retry, without loss or duplicates", async () => {
    server = await startSdkStreamableServer({ resumable: { retryMs: 30 } });
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(server.url, { onEvent: (e) => events.push(e), standaloneStream: false });
    const { peer, logs } = await drive(transport);
    await initialize(peer);
    expect(await callText(peer, "close-stream")).toBe("resumed");
    expect(logs).toEqual(["before close", "after close"]);
    const resume = server.seen.find((r) => r.method === "GET" && r.headers["last-event-id"] !== undefined);
    expect(resume).toBeDefined();
    expect(events).toContainEqual(expect.objectContaining({ type: "reconnecting", stream: "request", attempt: 1, delayMs: 30 }));
    await peer.close();
  });
});

describe("session, headers and lifecycle (scripted server)", () => {
  let scripted: ScriptedMcp | undefined;
  afterEach(async () => {
    await scripted?.close();
    scripted = undefined;
  });

  it("with reinitialize off, fails with SESSION_EXPIRED until initialize is sent again", async () => {
    scripted = await startScriptedMcp({
      call(m, res) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32001, message: "Session not found" } }));
      },
    });
    const transport = createStreamableHttpClientTransport(scripted.url, { reinitialize: false, standaloneStream: false });
    const { peer } = await drive(transport);
    await initialize(peer);
    await expect(peer.request("tools/list")).rejects.toMatchObject({ code: "SESSION_EXPIRED", status: 404 });
    await expect(peer.request("tools/list")).rejects.toMatchObject({ code: "SESSION_EXPIRED" });
    expect(scripted.seen.filter((r) => (r.body as { method?: string } | undefined)?.method === "tools/list")).toHaveLength(1);
    await initialize(peer);
    expect(transport.sessionId).toBe("s-1");
    await peer.close();
  });

  it("keeps a 400 that is not about the session an error: no re-initialization", async () => {
    scripted = await startScriptedMcp({
      call(m, res) {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, error: { code: -32600, message: "Bad Request: unsupported protocol version" } }));
      },
    });
    const transport = createStreamableHttpClientTransport(scripted.url, { standaloneStream: false });
    const { peer } = await drive(transport);
    await initialize(peer);
    await expect(peer.request("tools/list")).rejects.toThrow(/answered 400/);
    expect(scripted.seen.filter((r) => (r.body as { method?: string } | undefined)?.method === "initialize")).toHaveLength(1);
    await peer.close();
  });

  it("sends custom headers through a custom fetch, and never lets them override its own", async () => {
    scripted = await startScriptedMcp();
    const urls: string[] = [];
    const transport = createStreamableHttpClientTransport(scripted.url, {
      standaloneStream: false,
      headers: async () => ({ "x-tenant": "acme", "mcp-session-id": "forged" }),
      fetch: (input, init) => {
        urls.push(input.href);
        return fetch(input, init);
      },
    });
    const { peer } = await drive(transport);
    await initialize(peer);
    await peer.request("tools/list");
    expect(urls.length).toBe(scripted.seen.length);
    for (const request of scripted.seen) expect(request.headers["x-tenant"]).toBe("acme");
    expect(scripted.seen[0]?.headers["mcp-session-id"]).toBeUndefined();
    expect(scripted.seen.at(-1)?.headers["mcp-session-id"]).toBe("s-1");
    await peer.close();
  });

  it("refuses a session id that is not visible ASCII", async () => {
    scripted = await startScriptedMcp({ sessionId: "bad\tid" });
    const { peer } = await drive(createStreamableHttpClientTransport(scripted.url));
    await expect(initialize(peer)).rejects.toMatchObject({ code: "BAD_RESPONSE" });
    await peer.close();
  });

  it("ends the session with DELETE on close, closes once, and refuses to send afterwards", async () => {
    scripted = await startScriptedMcp();
    const transport = createStreamableHttpClientTransport(scripted.url, { standaloneStream: false });
    let closedCount = 0;
    await transport.start({ payload() {}, error() {}, closed: () => void closedCount++ });
    await transport.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} });
    await transport.close();
    await transport.close();
    expect(closedCount).toBe(1);
    const del = scripted.seen.find((r) => r.method === "DELETE");
    expect(del?.headers["mcp-session-id"]).toBe("s-1");
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toMatchObject({ code: "CLOSED" });
  });

  it("explains misuse with a TypeError", async () => {
    expect(() => createStreamableHttpClientTransport("ftp://example.com/mcp")).toThrow(/http: or https: URL/);
    expect(() => createStreamableHttpClientTransport("http://x/mcp", { maxMessageBytes: 0 })).toThrow(/maxMessageBytes/);
    const transport = createStreamableHttpClientTransport("http://127.0.0.1:9/mcp");
    await expect(transport.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow(/before start/);
    const sink = { payload() {}, error() {}, closed() {} };
    await transport.start(sink);
    await expect(transport.start(sink)).rejects.toThrow(TypeError);
    await transport.close();
  });

  it("reports a server that is not there as NETWORK, with the URL", async () => {
    const transport = createStreamableHttpClientTransport("http://127.0.0.1:9/mcp");
    const { peer } = await drive(transport);
    await expect(initialize(peer)).rejects.toMatchObject({ code: "NETWORK", message: expect.stringContaining("http://127.0.0.1:9/mcp") });
    await peer.close();
  });
});
