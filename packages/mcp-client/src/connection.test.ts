import { afterEach, describe, expect, it } from "vitest";
import { RequestError, type Transport } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import type { ClientEvents } from "./events";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { createScriptedServer, type ScriptOptions, type ScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function make(options: Partial<ClientOptions> = {}): Client {
  const c = createClient({ info: { name: "t", version: "1" }, reconnect: { initialDelayMs: 0 }, ...options });
  clients.push(c);
  return c;
}

function record<K extends keyof ClientEvents>(client: Client, ...events: K[]): { event: K; payload: ClientEvents[K] }[] {
  const log: { event: K; payload: ClientEvents[K] }[] = [];
  for (const event of events) client.on(event, (payload) => log.push({ event, payload }));
  return log;
}

const tools: ScriptOptions = {
  capabilities: { tools: {}, resources: { subscribe: true }, logging: {} },
  handlers: { "tools/list": () => ({ tools: [] }), "resources/subscribe": () => ({}), "logging/setLevel": () => ({}) },
};

function factory(script: ScriptOptions = tools): { servers: ScriptedServer[]; transport: () => Promise<Transport> } {
  const servers: ScriptedServer[] = [];
  return {
    servers,
    transport: async () => {
      const server = await createScriptedServer(script);
      servers.push(server);
      return server.transport;
    },
  };
}

describe("connection lifecycle", () => {
  it("says how to connect when used before connecting without a factory", async () => {
    const error = await make().listTools().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.NotConnected);
    expect((error as Error).message).toMatch(/connect\(transport\)/);
  });

  it("connects lazily on first use through the factory and reports it", async () => {
    const f = factory();
    const connects: unknown[] = [];
    const client = make({ transport: f.transport, observer: { connect: (e) => connects.push(e) } });
    const log = record(client, "connected");
    expect(client.state).toBe("idle");
    await client.listTools();
    expect(client.state).toBe("connected");
    expect(log.map((e) => e.event)).toEqual(["connected"]);
    expect(connects).toEqual([expect.objectContaining({ attempt: 1, lazy: true, reconnect: false, outcome: "ok", protocolVersion: "2025-11-25" })]);
  });

  it("retries a failing factory with backoff, and reports each failure", async () => {
    const f = factory();
    let calls = 0;
    const client = make({
      transport: () => (++calls < 3 ? Promise.reject(new Error(`refused ${calls}`)) : f.transport()),
      reconnect: { retries: 3, initialDelayMs: 0 },
    });
    const log = record(client, "connectFailed", "connected");
    await client.connect();
    expect(log.map((e) => e.event)).toEqual(["connectFailed", "connectFailed", "connected"]);
    expect(log[0]?.payload).toMatchObject({ attempt: 1, willRetry: true });
  });

  it("gives up after the retries with CONNECT_FAILED, and tries again on the next use", async () => {
    let calls = 0;
    const client = make({ transport: () => Promise.reject(new Error(`down ${++calls}`)), reconnect: { retries: 2, initialDelayMs: 0 } });
    const log = record(client, "connectFailed");
    const error = await client.ping().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.ConnectFailed);
    expect((error as Error).message).toMatch(/after 3 attempts: down 3/);
    expect(log.at(-1)?.payload).toMatchObject({ attempt: 3, willRetry: false });
    await client.ping().catch(() => {});
    expect(calls).toBe(6);
  });

  it("times out a server that never completes the handshake", async () => {
    const f = factory({ handlers: { initialize: () => new Promise(() => {}) } });
    const client = make({ transport: f.transport, connectTimeoutMs: 50, reconnect: { retries: 0 } });
    const error = await client.connect().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.ConnectTimeout);
    await f.servers[0]?.peer.closed;
  });

  it("does not retry a server that speaks no common version", async () => {
    const f = factory({ handlers: { initialize: () => ({ protocolVersion: "1999-01-01", capabilities: {}, serverInfo: { name: "old", version: "0" } }) } });
    const client = make({ transport: f.transport, reconnect: { retries: 5, initialDelayMs: 0 } });
    expect(((await client.connect().catch((e: unknown) => e)) as McpClientError).code).toBe(ClientFaultCode.UnsupportedVersion);
    expect(f.servers).toHaveLength(1);
  });

  it("rejects a call in flight when the server dies, then reconnects on next use and restores state", async () => {
    const f = factory({ ...tools, handlers: { ...tools.handlers, "tools/call": () => new Promise(() => {}) } });
    const client = make({ transport: f.transport });
    const log = record(client, "connected", "disconnected", "reconnected");
    await client.subscribe("mem://a");
    await client.setLoggingLevel("error");
    const call = client.callTool("hang", {}, { validateOutput: false }).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    await f.servers[0]?.kill();
    const error = await call;
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).code).toBe("CLOSED");
    expect(client.state).toBe("disconnected");
    await client.ping();
    expect(log.map((e) => e.event)).toEqual(["connected", "disconnected", "reconnected"]);
    expect(log[1]?.payload).toMatchObject({ expected: false });
    const second = f.servers[1] as ScriptedServer;
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.received.map((r) => r.method)).toEqual(expect.arrayContaining(["resources/subscribe", "logging/setLevel"]));
  });

  it("without a factory, a lost connection says how to recover", async () => {
    const server = await createScriptedServer();
    const client = make();
    await client.connect(server.transport);
    await server.kill();
    await new Promise((resolve) => setImmediate(resolve));
    const error = await client.ping().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.NotConnected);
    expect((error as Error).message).toMatch(/lost/);
  });

  it("close() rejects pending calls, refuses later ones, and is idempotent", async () => {
    const server = await createScriptedServer({ handlers: { "tools/call": () => new Promise(() => {}) } });
    const client = make();
    const log = record(client, "disconnected");
    await client.connect(server.transport);
    const call = client.callTool("hang", {}, { validateOutput: false }).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    await client.close();
    await client.close();
    expect(((await call) as RequestError).code).toBe("CLOSED");
    expect(((await client.ping().catch((e: unknown) => e)) as McpClientError).code).toBe(ClientFaultCode.Closed);
    expect(log).toEqual([{ event: "disconnected", payload: { reason: undefined, expected: true } }]);
    await server.peer.closed;
  });

  it("close() during a connect stops it", async () => {
    const f = factory({ handlers: { initialize: () => new Promise(() => {}) } });
    const client = make({ transport: f.transport });
    const connecting = client.connect().catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    await client.close();
    expect(((await connecting) as McpClientError).code).toBe(ClientFaultCode.Closed);
  });

  it("refuses a second transport while connected", async () => {
    const server = await createScriptedServer();
    const client = make();
    await client.connect(server.transport);
    await expect(client.connect((await createScriptedServer()).transport)).rejects.toThrow(/already connected/);
    await expect(client.connect()).resolves.toMatchObject({ info: { name: "scripted" } });
  });

  it("a call's signal aborts its wait for a lazy connect", async () => {
    const f = factory({ handlers: { initialize: () => new Promise(() => {}) } });
    const client = make({ transport: f.transport });
    const aborter = new AbortController();
    const call = client.ping({ signal: aborter.signal }).catch((e: unknown) => e);
    await new Promise((resolve) => setImmediate(resolve));
    aborter.abort();
    expect(((await call) as RequestError).code).toBe("ABORTED");
  });
});

describe("connection lifecycle: slow factories", () => {
  it("closes a transport the factory delivers after the connect timeout", async () => {
    let deliver: ((t: Transport) => void) | undefined;
    const client = make({ transport: () => new Promise<Transport>((resolve) => (deliver = resolve)), connectTimeoutMs: 50, reconnect: { retries: 0 } });
    const error = await client.connect().catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.ConnectTimeout);
    const late = await createScriptedServer();
    deliver?.(late.transport);
    await late.peer.closed;
  });
});
