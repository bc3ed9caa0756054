import { afterEach, describe, expect, it } from "vitest";
import { JsonRpcError, type RequestHandler } from "@proto/jsonrpc";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { ClientFaultCode, McpClientError } from "./errors";
import { pickCommonVersion } from "./handshake";
import { createScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function client(probe?: boolean | { timeoutMs: number }): Client {
  const c = createClient({ info: { name: "t", version: "1" }, ...(probe === undefined ? { protocol: "2025-11-25" } : { probe }) });
  clients.push(c);
  return c;
}

const answer = (version: string): RequestHandler => () => ({ protocolVersion: version, capabilities: {}, serverInfo: { name: "s", version: "1" } });
const versionOf = (params: unknown): string => (params as { protocolVersion: string }).protocolVersion;

describe("version negotiation", () => {
  it("asks for the latest version and sends notifications/initialized after the answer", async () => {
    const server = await createScriptedServer();
    await client().connect(server.transport);
    expect(versionOf(server.received[0]?.params)).toBe("2025-11-25");
    expect(server.received[0]?.params).toMatchObject({ clientInfo: { name: "t", version: "1" }, capabilities: {} });
    expect(server.notifications.map((n) => n.method)).toEqual(["notifications/initialized"]);
  });

  it("accepts any version it supports in the answer", async () => {
    const server = await createScriptedServer({ handlers: { initialize: answer("2024-11-05") } });
    const details = await client().connect(server.transport);
    expect(details.protocolVersion).toBe("2024-11-05");
  });

  it("closes with UNSUPPORTED_VERSION when the server picks a version it does not speak", async () => {
    const server = await createScriptedServer({ handlers: { initialize: answer("1999-01-01") } });
    const c = client();
    const error = await c.connect(server.transport).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect((error as McpClientError).code).toBe(ClientFaultCode.UnsupportedVersion);
    expect((error as Error).message).toMatch(/"1999-01-01".*does not speak/);
    await server.peer.closed;
    expect(server.notifications).toEqual([]);
    expect(c.state).toBe("disconnected");
  });

  for (const [code, label] of [[-32022, "-32022"], [-32004, "the draft -32004"], [-32000, "any code with data.supported"]] as const) {
    it(`retries initialize once with a common version after ${label}`, async () => {
      const server = await createScriptedServer({
        handlers: {
          initialize: (params) => {
            const v = versionOf(params);
            if (v !== "2025-06-18") throw new JsonRpcError(code, "Unsupported protocol version", { supported: ["2026-07-28", "2025-06-18"], requested: v });
            return answer(v)(params, undefined as never);
          },
        },
      });
      const details = await client().connect(server.transport);
      expect(details.protocolVersion).toBe("2025-06-18");
      expect(server.received.map((r) => versionOf(r.params))).toEqual(["2025-11-25", "2025-06-18"]);
    });
  }

  it("fails with UNSUPPORTED_VERSION when the unsupported-version error lists nothing in common", async () => {
    const server = await createScriptedServer({
      handlers: { initialize: () => { throw new JsonRpcError(-32022, "no", { supported: ["2099-01-01"], requested: "2025-11-25" }); } },
    });
    const error = await client().connect(server.transport).catch((e: unknown) => e);
    expect((error as McpClientError).code).toBe(ClientFaultCode.UnsupportedVersion);
    expect(server.received).toHaveLength(1);
  });

  it("probes with server/discover and initializes with the best common version", async () => {
    const server = await createScriptedServer({
      handlers: {
        "server/discover": () => ({ supportedVersions: ["2099-01-01", "2025-06-18", "2024-11-05"], capabilities: {}, serverInfo: { name: "s", version: "1" } }),
      },
    });
    const details = await client(true).connect(server.transport);
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize"]);
    expect(server.received[0]?.params).toEqual({
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
      },
    });
    expect(details).toMatchObject({ protocolVersion: "2025-06-18", supportedVersions: ["2099-01-01", "2025-06-18", "2024-11-05"] });
  });

  it("initializes at the mutual version an unsupported-version error names when it names no modern one", async () => {
    const server = await createScriptedServer({
      handlers: {
        "server/discover": (params) => {
          const v = (params as { _meta: Record<string, string> })._meta["io.modelcontextprotocol/protocolVersion"];
          if (v !== "2025-03-26") throw new JsonRpcError(-32004, "unsupported", { supported: ["2025-03-26"], requested: v });
          return { supportedVersions: ["2025-03-26"], capabilities: {}, serverInfo: { name: "s", version: "1" } };
        },
      },
    });
    const details = await client(true).connect(server.transport);
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize"]);
    expect(details).toMatchObject({ protocolVersion: "2025-03-26", supportedVersions: ["2025-03-26"] });
  });

  it("falls back to plain initialize when the server does not know server/discover (-32601)", async () => {
    const server = await createScriptedServer();
    const details = await client(true).connect(server.transport);
    expect(details.protocolVersion).toBe("2025-11-25");
    expect(details.supportedVersions).toBeUndefined();
  });

  it("falls back to plain initialize when the probe gets no answer", async () => {
    const server = await createScriptedServer({ handlers: { "server/discover": () => new Promise(() => {}) } });
    const details = await client({ timeoutMs: 50 }).connect(server.transport);
    expect(details.protocolVersion).toBe("2025-11-25");
    expect(server.received.map((r) => r.method)).toEqual(["server/discover", "initialize"]);
  });

  it("pickCommonVersion prefers our newest version", () => {
    expect(pickCommonVersion(["2024-11-05", "2025-06-18"])).toBe("2025-06-18");
    expect(pickCommonVersion(["2099-01-01", 3])).toBeUndefined();
  });
});
