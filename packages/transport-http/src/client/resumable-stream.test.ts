import { afterEach, describe, expect, it } from "vitest";
import type { HttpClientEvent } from "./options";
import { reconnectDelay, resolveReconnect } from "./options";
import { createStreamableHttpClientTransport } from "./streamable-http-client";
import { drive, initialize, until } from "./testing/drive";
import { openSse, writeEvent } from "./testing/http-fixture";
import { startScriptedMcp } from "./testing/scripted-mcp";
import type { ScriptedMcp } from "./testing/scripted-mcp";

let server: ScriptedMcp | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const note = (data: string): string => JSON.stringify({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data } });

describe("the standalone GET stream", () => {
  it("reconnects with Last-Event-ID after the server's retry, and loses nothing", async () => {
    server = await startScriptedMcp({
      get(req, res, count) {
        openSse(res);
        if (count === 1) {
          writeEvent(res, { retry: 25, id: "e1", data: note("one") });
          res.end();
        } else if (count === 2) {
          expect(req.headers["last-event-id"]).toBe("e1");
          writeEvent(res, { id: "e2", data: note("two") });
        }
      },
    });
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(server.url, { onEvent: (e) => events.push(e) });
    const { peer, logs, logged } = await drive(transport);
    await initialize(peer);
    await logged(2);
    expect(logs).toEqual(["one", "two"]);
    expect(server.seen.filter((r) => r.method === "GET").map((r) => r.headers["last-event-id"])).toEqual([undefined, "e1"]);
    expect(events).toContainEqual({ type: "reconnecting", stream: "standalone", attempt: 1, delayMs: 25, lastEventId: "e1" });
    await peer.close();
  });

  it("backs off exponentially with a cap, then gives up and says so", async () => {
    server = await startScriptedMcp({
      get(_req, res) {
        res.writeHead(503, { "content-type": "text/plain" }).end("overloaded");
      },
    });
    const events: HttpClientEvent[] = [];
    const transport = createStreamableHttpClientTransport(server.url, {
      onEvent: (e) => events.push(e),
      reconnect: { initialDelayMs: 5, factor: 2, maxDelayMs: 12, maxRetries: 3 },
    });
    const failed = until<HttpClientEvent>(transport.subscribe, (e) => e.type === "standalone-stream" && e.state === "failed");
    const { peer, warnings } = await drive(transport);
    await initialize(peer);
    const end = await failed;
    expect(events.filter((e) => e.type === "reconnecting").map((e) => (e.type === "reconnecting" ? e.delayMs : 0))).toEqual([5, 10, 12]);
    expect(String((end as { cause?: Error }).cause?.message)).toMatch(/GET .* answered 503.*"overloaded"/);
    expect(warnings.some((w) => w.includes("answered 503"))).toBe(true);
    expect(server.seen.filter((r) => r.method === "GET")).toHaveLength(4);
    await peer.close();
  });

  it("takes 405 to mean the server offers no stream, and does not ask again", async () => {
    server = await startScriptedMcp();
    const transport = createStreamableHttpClientTransport(server.url);
    const unsupported = until<HttpClientEvent>(transport.subscribe, (e) => e.type === "standalone-stream");
    const { peer } = await drive(transport);
    await initialize(peer);
    expect(await unsupported).toEqual({ type: "standalone-stream", state: "unsupported" });
    expect(server.seen.filter((r) => r.method === "GET")).toHaveLength(1);
    await peer.close();
  });
});

describe("reconnectDelay", () => {
  it("uses the server's retry when it sent one, else grows by factor up to the cap", () => {
    const settings = resolveReconnect({ initialDelayMs: 100, factor: 3, maxDelayMs: 1000 });
    expect([1, 2, 3, 4].map((n) => reconnectDelay(settings, n, undefined))).toEqual([100, 300, 900, 1000]);
    expect(reconnectDelay(settings, 4, 7)).toBe(7);
  });

  it("refuses nonsense settings with a TypeError", () => {
    expect(() => resolveReconnect({ factor: 0.5 })).toThrow(TypeError);
    expect(() => resolveReconnect({ maxRetries: -1 })).toThrow(/maxRetries/);
  });
});
