/**
 * The 401 challenge names the scopes the resource needs (MCP 2025-11-25 basic/authorization:
 * servers SHOULD include `scope` in `WWW-Authenticate`, and clients request those first).
 */
import { describe, expect, it } from "vitest";
import { createEchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS } from "./testing/net";
import type { StreamableHttpServerOptions } from "./options";
import { createStreamableHttpHandler } from "./web";

const RESOURCE = "https://mcp.example.com/mcp";
const METADATA = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

async function challengeOf(options: Partial<StreamableHttpServerOptions>, authorization?: string): Promise<string | null> {
  const echo = createEchoServer();
  const handler = createStreamableHttpHandler({ connect: echo.connect, authenticate: () => undefined, ...options });
  try {
    const headers = authorization === undefined ? POST_HEADERS : { ...POST_HEADERS, authorization };
    const response = await handler(new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: initBody() }));
    expect(response.status).toBe(401);
    await response.text();
    expect(echo.peers).toHaveLength(0);
    return response.headers.get("www-authenticate");
  } finally {
    await handler.close();
  }
}

describe("the scope of a 401 challenge", () => {
  it("carries challengeScopes, for no token and for a bad one", async () => {
    const protectedResource = { resource: RESOURCE, authorizationServers: ["https://as.example.com"], scopesSupported: ["files:read", "files:write"] };
    expect(await challengeOf({ protectedResource, challengeScopes: ["files:read"] })).toBe(`Bearer scope="files:read", resource_metadata="${METADATA}"`);
    const bad = await challengeOf({ protectedResource, challengeScopes: ["files:read", "mcp"] }, "Bearer nope");
    expect(bad).toContain('error="invalid_token"');
    expect(bad).toContain('scope="files:read mcp"');
  });

  it("defaults to protectedResource.scopesSupported; [] sends none; works without metadata too", async () => {
    const protectedResource = { resource: RESOURCE, authorizationServers: ["https://as.example.com"], scopesSupported: ["tools.echo"] };
    expect(await challengeOf({ protectedResource })).toBe(`Bearer scope="tools.echo", resource_metadata="${METADATA}"`);
    expect(await challengeOf({ protectedResource, challengeScopes: [] })).toBe(`Bearer resource_metadata="${METADATA}"`);
    expect(await challengeOf({ challengeScopes: ["mcp"] })).toBe('Bearer scope="mcp"');
    expect(await challengeOf({})).toBe("Bearer");
  });

  it("refuses a scope that is not a scope token, naming it", () => {
    const echo = createEchoServer();
    for (const scope of ["two words", 'q"uote', "", 5]) {
      expect(() => createStreamableHttpHandler({ connect: echo.connect, challengeScopes: [scope as string] })).toThrow(/challengeScopes holds .* not a scope token/);
    }
    const protectedResource = { resource: RESOURCE, authorizationServers: ["https://as.example.com"], scopesSupported: ["a b"] };
    expect(() => createStreamableHttpHandler({ connect: echo.connect, protectedResource })).toThrow(/protectedResource.scopesSupported holds "a b"/);
  });
});
