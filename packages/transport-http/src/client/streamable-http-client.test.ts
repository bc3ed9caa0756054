import { afterEach, describe, expect, it } from "vitest";
import type { HttpClientEvent } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { callText, drive, initialize, until } from "./testing/drive";
import { startSdkStreamableServer } from "./testing/sdk-servers";
import type { FixtureServer } from "./testing/sdk-servers";

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
