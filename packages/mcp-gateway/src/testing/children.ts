/**
 * Test support (not exported): small child servers built with `@proto/mcp-server`, reached
 * in memory, and an upstream client connected to a gateway.
 */
import { createMemoryTransportPair } from "@proto/jsonrpc/testing";
import type { Transport } from "@proto/jsonrpc";
import { createClient } from "@proto/mcp-client";
import type { Client, ClientOptions } from "@proto/mcp-client";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import type { Gateway } from "../gateway-types";

export const UI = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };
export const VIEW_HTML = "<!doctype html><html><body>view</body></html>";

/** A child with `echo`, a prompt, a resource, a template, a view it does not list, a linked tool and an app-only tool. */
export function createAppChild(name: string): Server {
  const server = createServer({ name, version: "1.0.0" }, { capabilities: { resources: { subscribe: true } } });
  server.tool({ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }, ({ text }) => `${name}:${text ?? ""}`);
  server.tool(
    { name: "show", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://app/view" }, "ui/resourceUri": "ui://app/view" } },
    () => ({ content: [{ type: "text", text: "shown" }, { type: "resource_link", uri: "ui://app/view", name: "view" }] }),
  );
  server.tool({ name: "refresh", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://app/view", visibility: ["app"] } } }, () => `${name} refreshed`);
  server.tool({ name: "broken", inputSchema: { type: "object" }, _meta: { ui: { resourceUri: "ui://app/missing" } } }, () => "broken");
  server.prompt({ name: "greet", arguments: [{ name: "who", required: true }] }, ({ who }) => `hello ${who} from ${name}`);
  server.resource({ uri: "file:///notes.txt", name: "notes" }, () => `${name} notes`);
  server.resourceTemplate({ uriTemplate: "ui://app/{page}", name: "views" }, (uri) => (uri === "ui://app/view" ? { text: VIEW_HTML, mimeType: "text/html;profile=mcp-app" } : undefined));
  return server;
}

/** A child with tools only. */
export function createToolsOnlyChild(): Server {
  const server = createServer({ name: "tools-only", version: "1.0.0" });
  server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } }, ({ a, b }) => ({ sum: (a ?? 0) + (b ?? 0) }));
  return server;
}

/** A transport factory serving `server` in memory (a fresh session per start). */
export function inMemory(server: Server): () => Promise<Transport> {
  return async () => {
    const [client, child] = createMemoryTransportPair();
    await server.connect(child);
    return client;
  };
}

/**
 * Like `inMemory`, but the child looks like a server of 2025-11-25 and before: its
 * `server/discover` goes to a method it does not have, so the client falls back to `initialize`
 * (and the child can log outside requests, which a 2026-07-28 server cannot).
 */
export function inMemory2025(server: Server): () => Promise<Transport> {
  const make = inMemory(server);
  return async () => {
    const transport = await make();
    const send = transport.send.bind(transport);
    return Object.assign(transport, {
      send: (payload: Parameters<Transport["send"]>[0]) =>
        send(!Array.isArray(payload) && "method" in payload && payload.method === "server/discover" ? { ...payload, method: "x-test/no-discover" } : payload),
    });
  };
}

/** Connects an upstream client to the gateway in memory. */
export async function upstream(gateway: Gateway, options: Partial<ClientOptions> = {}): Promise<Client> {
  const [a, b] = createMemoryTransportPair();
  await gateway.connect(b);
  const client = createClient({ info: { name: "host", version: "1.0.0" }, ...options });
  await client.connect(a);
  return client;
}
