/**
 * The WebSocket upgrade refuses with the Streamable HTTP handler's challenges: a 401 names the
 * scopes the resource needs and its RFC 9728 metadata (MCP 2025-11-25 basic/authorization), a 403
 * `insufficient_scope` keeps the granted scopes (RFC 6750 section 3.1).
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Transport } from "@proto/jsonrpc";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { HttpServerError } from "../server/errors";
import type { StreamableHttpServerOptions } from "../server/options";
import { createEchoServer } from "../server/testing/echo-server";
import { initBody, POST_HEADERS } from "../server/testing/net";
import { createStreamableHttpHandler } from "../server/web";
import { createWebSocketServer } from "./ws-server";
import type { WebSocketServerHandle, WebSocketServerOptions } from "./ws-server";

const RESOURCE = "https://mcp.example.com/mcp";
const METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";
const protectedResource = { resource: RESOURCE, authorizationServers: ["https://as.example.com"], scopesSupported: ["files:read", "files:write"] };

const servers: Server[] = [];
const handles: WebSocketServerHandle[] = [];
const sockets: WebSocket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  for (const handle of handles.splice(0)) await handle.close();
  for (const http of servers.splice(0)) {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
});

async function serve(options: Partial<WebSocketServerOptions>): Promise<URL> {
  const http = createServer();
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  handles.push(createWebSocketServer({ server: http, connect: () => undefined, ...options }));
  return new URL(`ws://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

/** Opens a raw upgrade and reports the refusal (status and headers), or undefined once it opened. */
function upgrade(url: URL, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown> } | undefined> {
  const socket = new WebSocket(url, ["mcp"], { headers });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(undefined));
    socket.once("unexpected-response", (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    socket.once("error", reject);
  });
}

/** The 401 challenge the Streamable HTTP handler sends for the same options. */
async function httpChallenge(options: Partial<StreamableHttpServerOptions>, authorization?: string): Promise<string | null> {
  const echo = createEchoServer();
  const handler = createStreamableHttpHandler({ connect: echo.connect, authenticate: () => undefined, ...options });
  try {
    const headers = authorization === undefined ? POST_HEADERS : { ...POST_HEADERS, authorization };
    const response = await handler(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: initBody() }));
    await response.text();
    return response.headers.get("www-authenticate");
  } finally {
    await handler.close();
  }
}

describe("the WebSocket upgrade's challenges", () => {
  it("401 carries scope and resource_metadata, the same challenge as the HTTP handler's, with invalid_token for a bad token", async () => {
    const url = await serve({ authenticate: () => undefined, protectedResource, challengeScopes: ["files:read"] });
    const anonymous = await upgrade(url);
    expect(anonymous).toMatchObject({ status: 401 });
    expect(anonymous?.headers["www-authenticate"]).toBe(`Bearer scope="files:read", resource_metadata="${METADATA}"`);
    expect(anonymous?.headers["www-authenticate"]).toBe(await httpChallenge({ protectedResource, challengeScopes: ["files:read"] }));
    const bad = await upgrade(url, { authorization: "Bearer nope" });
    expect(bad?.headers["www-authenticate"]).toBe(await httpChallenge({ protectedResource, challengeScopes: ["files:read"] }, "Bearer nope"));
    expect(bad?.headers["www-authenticate"]).toContain('error="invalid_token"');
  });

  it("challengeScopes defaults to protectedResource.scopesSupported; [] sends none; no options is a bare Bearer", async () => {
    const challengeOf = async (options: Partial<WebSocketServerOptions>) => (await upgrade(await serve({ authenticate: () => undefined, ...options })))?.headers["www-authenticate"];
    expect(await challengeOf({ protectedResource })).toBe(`Bearer scope="files:read files:write", resource_metadata="${METADATA}"`);
    expect(await challengeOf({ protectedResource, challengeScopes: [] })).toBe(`Bearer resource_metadata="${METADATA}"`);
    expect(await challengeOf({})).toBe("Bearer");
  });

  it("403 insufficient_scope for a principal without the requiredScopes, the granted scopes kept in the challenge", async () => {
    const url = await serve({
      authenticate: (req) => ({ subject: "alice", scopes: req.headers.get("authorization") === "Bearer full" ? ["files:read", "mcp"] : ["files:read"], claims: {} }),
      protectedResource,
      requiredScopes: ["mcp"],
    });
    const refused = await upgrade(url, { authorization: "Bearer partial" });
    expect(refused?.status).toBe(403);
    const challenge = String(refused?.headers["www-authenticate"]);
    expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="files:read mcp", resource_metadata="[^"]+", error_description=/);
    expect(challenge).toContain(METADATA);
    expect(await upgrade(url, { authorization: "Bearer full" })).toBeUndefined();
  });

  it("a hook that throws is 500 (logged), an unreachable JWKS 503 with Retry-After; nothing connects", async () => {
    const logged: unknown[] = [];
    let connected = 0;
    const logger = { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => void logged.push(args[0]) };
    const url = await serve({
      logger,
      connect: () => void connected++,
      authenticate: (req) => {
        if (req.headers.get("authorization") === "Bearer jwks") throw new HttpServerError("JWKS_UNAVAILABLE", "the JWKS is unreachable");
        throw new Error("boom");
      },
    });
    expect(await upgrade(url, { authorization: "Bearer x" })).toMatchObject({ status: 500 });
    expect(logged).toEqual([expect.stringMatching(/^AUTH_FAILED: /)]);
    expect(await upgrade(url, { authorization: "Bearer jwks" })).toMatchObject({ status: 503, headers: { "retry-after": "5" } });
    expect(connected).toBe(0);
  });

  it("refuses a scope that is not a scope token when created, naming the option", () => {
    const http = createServer();
    for (const [name, value] of [["challengeScopes", ["two words"]], ["requiredScopes", ['q"uote']]] as const) {
      expect(() => createWebSocketServer({ server: http, connect: () => undefined, [name]: value })).toThrow(new RegExp(`${name} holds .* not a scope token`));
    }
  });
});

describe("createWebSocketServer faults", () => {
  it("a connect() that throws closes the connection with an HttpServerError CONNECT_FAILED, the error as its cause", async () => {
    const reasons: unknown[] = [];
    const boom = new Error("no server for you");
    const url = await serve({
      connect: (transport: Transport) => {
        void transport.start({ payload() {}, error() {}, closed: (reason) => void reasons.push(reason) });
        throw boom;
      },
    });
    expect(await upgrade(url)).toBeUndefined();
    await expect.poll(() => reasons.length).toBe(1);
    expect(reasons[0]).toMatchObject({ name: "HttpServerError", code: "CONNECT_FAILED", cause: boom });
  });
});
