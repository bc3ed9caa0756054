import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError, type Transport } from "@proto/jsonrpc";
import type { Client, ClientOptions } from "./client-types";
import { createClient } from "./client";
import { createEraMemory } from "./era";
import { discover } from "./fixtures/modern-discover";
import { createScriptedServer, type ScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(options: Partial<ClientOptions> = {}): Client {
  const c = createClient({ info: { name: "t", version: "1" }, reconnect: { retries: 0 }, ...options });
  clients.push(c);
  return c;
}

/** The transport of `server` as a real client transport names its server (a command line, an origin). */
function keyed(server: ScriptedServer, serverKey: string): Transport {
  const { transport } = server;
  return { start: (sink) => transport.start(sink), send: (payload) => transport.send(payload), close: (reason) => transport.close(reason), serverKey };
}

/** A 2025-only server that records the probe it refuses. */
const legacyServer = (): Promise<ScriptedServer> =>
  createScriptedServer({ handlers: { "server/discover": () => { throw new JsonRpcError(-32601, "Method not found"); } } });

const methods = (server: ScriptedServer): string[] => server.received.map((r) => r.method);

describe("verdicts under the transport's server key (no serverKey option)", () => {
  it("clients reaching the same server share the verdict by default: the second one initializes at once", async () => {
    const key = `node legacy-${Math.random()}`;
    const first = await legacyServer();
    await client().connect(keyed(first, key));
    expect(methods(first)).toEqual(["server/discover", "initialize"]);
    const second = await legacyServer();
    await client().connect(keyed(second, key));
    expect(methods(second)).toEqual(["initialize"]);
    // Another server is probed as usual.
    const other = await legacyServer();
    await client().connect(keyed(other, `${key} --other`));
    expect(methods(other)).toEqual(["server/discover", "initialize"]);
  });

  it("a remembered verdict that fails is forgotten under the derived key, and the server probed again", async () => {
    const eraMemory = createEraMemory();
    const key = "https://mcp.example.test";
    await client({ eraMemory }).connect(keyed(await legacyServer(), key));
    expect(eraMemory.get(key)).toEqual({ era: "legacy" });
    const upgraded = await createScriptedServer({ handlers: { initialize: () => { throw new JsonRpcError(-32022, "modern only", { supported: ["2026-07-28"], requested: "2025-11-25" }); }, "server/discover": discover } });
    expect((await client({ eraMemory }).connect(keyed(upgraded, key))).protocolVersion).toBe("2026-07-28");
    expect(methods(upgraded)).toEqual(["initialize", "server/discover"]);
    expect(eraMemory.get(key)).toEqual({ era: "modern", version: "2026-07-28" });
  });

  it("a server upgraded to modern-only behind a remembered legacy verdict: the reconnect probes again at once and the request goes through", async () => {
    const eraMemory = createEraMemory();
    const key = `node upgraded-${Math.random()}`;
    const servers: ScriptedServer[] = [];
    const factory = async (): Promise<Transport> => {
      const server = servers.length === 0
        ? await legacyServer()
        : await createScriptedServer({ handlers: {
          initialize: () => { throw new JsonRpcError(-32601, "Method not found: initialize"); },
          "server/discover": discover,
          "tools/list": () => ({ resultType: "complete", ttlMs: 0, cacheScope: "public", tools: [] }),
        } });
      servers.push(server);
      return keyed(server, key);
    };
    const c = client({ transport: factory, eraMemory, reconnect: { retries: 2, initialDelayMs: 1 } });
    expect((await c.connect()).protocolVersion).toBe("2025-11-25");
    await servers[0]?.kill();
    await expect(c.listTools()).resolves.toMatchObject({ tools: [] });
    expect(c.server?.protocolVersion).toBe("2026-07-28");
    expect(methods(servers[1] as ScriptedServer)).toEqual(["initialize", "server/discover", "tools/list"]);
    expect(eraMemory.get(key)).toEqual({ era: "modern", version: "2026-07-28" });
  });

  it("a factory's transports are keyed per connect attempt", async () => {
    const eraMemory = createEraMemory();
    const servers: ScriptedServer[] = [];
    const factory = async (): Promise<Transport> => {
      // The first server closes the pipe when probed; the retry reaches another server, a modern one.
      const server = servers.length === 0
        ? await createScriptedServer({ handlers: { "server/discover": async () => { await server.kill(); return new Promise(() => {}); } } })
        : await createScriptedServer({ handlers: { "server/discover": discover } });
      servers.push(server);
      return keyed(server, `server ${servers.length}`);
    };
    const details = await client({ transport: factory, eraMemory, reconnect: { retries: 1, initialDelayMs: 1 } }).connect();
    expect(details.protocolVersion).toBe("2026-07-28");
    expect(eraMemory.get("server 1")).toEqual({ era: "legacy" });
    expect(eraMemory.get("server 2")).toEqual({ era: "modern", version: "2026-07-28" });
  });

  it("serverKey wins over the transport's key; a transport without a key keeps its verdict in its client", async () => {
    const eraMemory = createEraMemory();
    await client({ eraMemory, serverKey: "chosen" }).connect(keyed(await legacyServer(), "derived"));
    expect(eraMemory.get("chosen")).toEqual({ era: "legacy" });
    expect(eraMemory.get("derived")).toBeUndefined();
    const plain = await legacyServer();
    await client({ eraMemory }).connect(plain.transport);
    expect(eraMemory.get("")).toBeUndefined();
    const again = await legacyServer();
    await client({ eraMemory }).connect(again.transport);
    expect(methods(again)).toEqual(["server/discover", "initialize"]);
  });
});
