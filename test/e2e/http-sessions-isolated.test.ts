/**
 * Guards session isolation on one Streamable HTTP server (DESIGN.md: one definition, many
 * sessions, nothing of one reaches another; the official SDK's cross-client leak,
 * CVE-2026-25536, is the counter-example). Two of our clients share one server: their
 * concurrent calls, log levels, subscriptions and request ids stay their own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type Client } from "@proto/mcp-client";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, createNodeHttpServer } from "@proto/transport-http/node";
import { closeHttp, listenLoopback } from "../support/e2e-transports";
import { createScenarioServer, SCENARIO, type ScenarioServer } from "../support/scenario-server";
import { eventually, textOf } from "../support/wait";

describe("two clients on one stateful Streamable HTTP server", () => {
  let scenario: ScenarioServer;
  let stop: () => Promise<void>;
  const clients: Client[] = [];
  const logs: string[][] = [[], []];
  const updates: string[][] = [[], []];

  beforeAll(async () => {
    scenario = createScenarioServer("shared");
    const listener = createNodeHttpServer(createNodeHttpHandler({ connect: (t) => scenario.server.connect(t) }));
    const port = await listenLoopback(listener);
    stop = async () => (await closeHttp(listener), await scenario.server.close());
    for (const i of [0, 1]) {
      const client = createClient({ protocol: "2025-11-25", info: { name: `host-${i}`, version: "1" } });
      client.on("log", (m) => logs[i]!.push(JSON.stringify(m.data)));
      client.on("resourceUpdated", (e) => updates[i]!.push(e.uri));
      await client.connect(createStreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`));
      clients.push(client);
    }
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await stop();
  });

  it("has two sessions", () => {
    expect(scenario.server.sessions().filter((s) => s.initialized)).toHaveLength(2);
  });

  it("answers interleaved concurrent calls to the client that made them", async () => {
    const calls = Array.from({ length: 100 }, (_, i) => ({ client: i % 2, text: `client ${i % 2} call ${i}` }));
    const results = await Promise.all(calls.map((c) => clients[c.client]!.callTool("echo", { text: c.text })));
    expect(results.map(textOf)).toEqual(calls.map((c) => c.text));
  });

  it("keeps each session's log level and logs to itself", async () => {
    await clients[0]!.setLoggingLevel("info");
    await clients[1]!.setLoggingLevel("error");
    await clients[0]!.callTool("work", { steps: 2 });
    await clients[1]!.callTool("work", { steps: 2 });
    await eventually(() => logs[0]!.length === 2, "client 0's two logs");
    await clients[1]!.ping();
    expect(logs[1]).toEqual([]);
  });

  it("sends resource updates only to the session that subscribed", async () => {
    await clients[1]!.subscribe(SCENARIO.resourceUri);
    expect(scenario.server.resourceUpdated(SCENARIO.resourceUri)).toBe(1);
    await eventually(() => updates[1]!.length === 1, "the update on client 1's standalone stream");
    await clients[0]!.ping();
    expect(updates[0]).toEqual([]);
  });

  it("ignores another session's cancellations, whatever request ids they name", async () => {
    const aborter = new AbortController();
    const call = clients[0]!.callTool("wait", {}, { signal: aborter.signal }).catch((e: unknown) => e);
    await eventually(() => scenario.status().waiting === 1, "client 0's call to start");
    // Client 1 numbers its requests like client 0 does: cancel every id either may have used.
    const ids = Array.from({ length: 301 }, (_, id) => id);
    await Promise.all(ids.map((id) => clients[1]!.notify("notifications/cancelled", { requestId: id, reason: "not yours" })));
    await clients[1]!.ping();
    expect(scenario.status()).toMatchObject({ waiting: 1, cancelled: 0 });
    aborter.abort();
    await call;
    await eventually(() => scenario.status().cancelled === 1, "client 0's own cancellation");
  });
});
