/**
 * The handler with the real @proto/mcp-server behind it, driven by the official SDK client.
 * Test-only import of @proto/mcp-server: the package itself never imports it (DESIGN.md 1).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createServer } from "@proto/mcp-server";
import type { Server } from "@proto/mcp-server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createJwtVerifier } from "../auth/jwt";
import { AUDIENCE, ISSUER, jwksOf, makeKey, mint } from "../auth/testing/keys";
import type { TestKey } from "../auth/testing/keys";
import { createMemoryEventStore } from "./event-store";
import { serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { NodeHttpHandlerOptions } from "./node-adapter";

function makeServer(): Server {
  const server = createServer({ name: "real", version: "1.0.0" });
  server.tool({ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const }, ({ a, b }) => a + b);
  server.tool({ name: "steps", inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } as const }, async ({ n }, ctx) => {
    for (let i = 1; i <= n; i += 1) await ctx.progress(i, n);
    return `done ${n}`;
  });
  server.tool({ name: "whoami", inputSchema: { type: "object" } as const }, (_args, ctx) => ctx.principal?.subject ?? "anonymous");
  server.tool({ name: "deploy", inputSchema: { type: "object" } as const, scopes: ["deploy"] }, () => "deployed");
  return server;
}

describe("the official SDK client, our handler, @proto/mcp-server", () => {
  let running: Running | undefined;
  let client: Client | undefined;
  let server: Server;
  let key: TestKey;
  beforeAll(async () => {
    key = await makeKey("k1");
  });
  afterEach(async () => {
    await client?.close();
    await running?.close();
    await server.close();
    client = undefined;
    running = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}, token?: string): Promise<Client> {
    server = makeServer();
    running = await serve({ connect: (transport) => server.connect(transport), scopesFor: (request) => server.scopesFor(request), ...options });
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    client = new Client({ name: "sdk", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers } }));
    return client;
  }

  it.each([
    ["stateful", {}],
    ["stateful with an event store", { eventStore: createMemoryEventStore() }],
  ])("serves tools %s, streaming progress before the result", async (_name, options) => {
    const c = await start(options);
    expect((await c.listTools()).tools.map((tool) => tool.name)).toEqual(["add", "steps", "whoami", "deploy"]);
    expect((await c.callTool({ name: "add", arguments: { a: 2, b: 3 } })).content).toEqual([{ type: "text", text: "5" }]);
    const seen: number[] = [];
    const result = await c.callTool({ name: "steps", arguments: { n: 3 } }, undefined, { onprogress: (p) => seen.push(p.progress) });
    expect(result.content).toEqual([{ type: "text", text: "done 3" }]);
    expect(seen).toEqual([1, 2, 3]);
    expect(server.sessions()).toHaveLength(1);
  });

  it("serves stateless requests on fresh transports", async () => {
    server = makeServer();
    running = await serve({ stateless: true, connect: (transport, context) => server.connect(transport, context.initialize ? {} : { initialized: {} }) });
    client = new Client({ name: "sdk", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url)));
    expect((await client.callTool({ name: "add", arguments: { a: 1, b: 1 } })).content).toEqual([{ type: "text", text: "2" }]);
    await expect.poll(() => server.sessions().length).toBe(0);
  });

  it("answers a tool's declared scope 403 before the server runs it, and passes the principal", async () => {
    const verifier = createJwtVerifier({ jwks: jwksOf(key), issuer: ISSUER, audience: AUDIENCE });
    const options = { authenticate: verifier.authenticate, protectedResource: { resource: AUDIENCE, authorizationServers: [ISSUER] } };
    const c = await start(options, await mint(key, { sub: "carol", scope: "read" }));
    expect((await c.callTool({ name: "whoami", arguments: {} })).content).toEqual([{ type: "text", text: "carol" }]);
    await expect(c.callTool({ name: "deploy", arguments: {} })).rejects.toMatchObject({ code: 403, message: expect.stringContaining("insufficient scope") });
  });
});
