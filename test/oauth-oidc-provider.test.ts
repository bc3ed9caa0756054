/**
 * The OAuth client against a real OpenID provider (`oidc-provider`, see support/oidc-server.ts):
 * an @proto server behind the Node HTTP handler verifies the provider's JWT access tokens
 * (signature from its JWKS, issuer, audience = the MCP endpoint) and asks for `mcp:write` on
 * one tool. Each test is one step of the flows a host meets: authorization code with dynamic
 * registration, PKCE and resource indicators; refresh after expiry with rotation; step-up on
 * 403; a denied consent; a user slower than the connect timeout; client credentials with each
 * client authentication method.
 */
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, decodeJwt, jwtVerify } from "jose";
import type { Principal } from "@proto/jsonrpc";
import { createClient, type Client } from "@proto/mcp-client";
import { createClientCredentialsAuth, createHeadlessRedirect, createOAuth, isOAuthError, OAuthFaultCode, type OAuthProvider } from "@proto/mcp-client/oauth";
import { createLoopbackRedirect } from "@proto/mcp-client/oauth/node";
import { createServer } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler } from "@proto/transport-http/node";
import { afterEach, describe, expect, it } from "vitest";
import { createClientKey, createOidcUser, type OidcServer, type OidcUser, startOidcServer } from "./support/oidc-server";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

interface Rig {
  readonly url: string;
  readonly oidc: OidcServer;
  /** The principals the MCP server accepted, in order. */
  readonly principals: Principal[];
}

/** The MCP server (`whoami` for any token, `write` needs `mcp:write`) and the provider that issues its tokens. */
async function start(clients: Parameters<typeof startOidcServer>[0]["clients"] = []): Promise<Rig> {
  const http: HttpServer = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const oidc = await startOidcServer({ resource: url, scopes: ["mcp:read", "mcp:write"], clients });
  const jwks = createRemoteJWKSet(new URL(`${oidc.issuer}/jwks`));
  const mcp = createServer({ name: "protected", version: "1.0.0" });
  mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => `you are ${ctx.principal?.subject ?? "nobody"}`);
  mcp.tool({ name: "write", inputSchema: { type: "object" }, scopes: ["mcp:write"] }, () => "written");
  const principals: Principal[] = [];
  const handler = createNodeHttpHandler({
    connect: (transport) => mcp.connect(transport),
    authenticate: async (request) => {
      const header = request.headers.get("authorization");
      if (header?.startsWith("Bearer ") !== true) return undefined;
      try {
        const { payload } = await jwtVerify(header.slice(7), jwks, { issuer: oidc.issuer, audience: url });
        const principal: Principal = { subject: String(payload.sub), scopes: String(payload.scope ?? "").split(" ").filter(Boolean), claims: { ...payload } };
        principals.push(principal);
        return principal;
      } catch {
        return undefined;
      }
    },
    protectedResource: { resource: url, authorizationServers: [oidc.issuer], scopesSupported: ["mcp:read"] },
    scopesFor: (request) => mcp.scopesFor(request),
  });
  http.on("request", handler);
  cleanup.push(async () => {
    await handler.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
    await oidc.close();
  });
  return { url, oidc, principals };
}

function userLogin(rig: Rig, user: OidcUser, extra: Partial<Parameters<typeof createOAuth>[0]> = {}): OAuthProvider {
  return createOAuth({
    serverUrl: rig.url,
    redirect: createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: (prompt) => user.authorize(prompt) }),
    clientMetadata: { client_name: "proto e2e" },
    ...extra,
  });
}

/** Both eras answer auth on the HTTP wire: 401 to authorize, 403 `insufficient_scope` to step up. */
const ERAS = ["2025-11-25", "2026-07-28"] as const;
type Era = (typeof ERAS)[number];

async function open(rig: Rig, protocol: Era, auth: OAuthProvider, options: { connectTimeoutMs?: number; retries?: number } = {}): Promise<Client> {
  const client = createClient({
    info: { name: "oidc-e2e", version: "1.0.0" },
    protocol,
    transport: () => createStreamableHttpClientTransport(rig.url, { auth }),
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    reconnect: { retries: options.retries ?? 3, initialDelayMs: 10, maxDelayMs: 50 },
  });
  cleanup.push(() => client.close());
  await client.connect();
  expect(client.server?.protocolVersion).toBe(protocol);
  return client;
}

const text = (result: { content: readonly unknown[] }): string => (result.content[0] as { text?: string }).text ?? "";

describe.each(ERAS)("OAuth against oidc-provider, MCP %s", (era) => {
  it("authorization code: dynamic registration, PKCE S256, the resource indicator, a JWT access token the server verifies", async () => {
    const rig = await start();
    const user = createOidcUser({ login: "alice" });
    const auth = userLogin(rig, user);
    const client = await open(rig, era, auth);
    expect(text(await client.callTool("whoami", {}))).toBe("you are alice");
    const [request] = rig.oidc.authorizations;
    expect(request?.get("code_challenge_method")).toBe("S256");
    expect(request?.get("resource")).toBe(rig.url);
    const tokens = await auth.tokens();
    expect(decodeJwt(tokens?.accessToken ?? "")).toMatchObject({ iss: rig.oidc.issuer, aud: rig.url, sub: "alice" });
    expect(await rig.oidc.provider.Client.find(tokens?.clientId ?? "")).toBeDefined();
    expect(rig.oidc.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([["authorization_code", rig.url]]);
  });

  it("asks for offline_access with prompt=consent, so the provider issues a refresh token", async () => {
    const rig = await start();
    const auth = userLogin(rig, createOidcUser({ login: "alice" }));
    await open(rig, era, auth);
    expect(rig.oidc.authorizations[0]?.get("scope")?.split(" ")).toContain("offline_access");
    expect(rig.oidc.authorizations[0]?.get("prompt")).toBe("consent");
    expect((await auth.tokens())?.refreshToken).toBeTypeOf("string");
  });

  it("refreshes after expiry with rotation: a new refresh token, the old one refused, the session goes on", async () => {
    const rig = await start();
    let skew = 0;
    const auth = userLogin(rig, createOidcUser({ login: "alice" }), { now: () => Date.now() + skew });
    const client = await open(rig, era, auth);
    const first = await auth.tokens();
    skew = 3_600_000;
    expect(text(await client.callTool("whoami", {}))).toBe("you are alice");
    const second = await auth.tokens();
    expect(rig.oidc.tokenRequests.map((r) => r.grantType)).toEqual(["authorization_code", "refresh_token"]);
    expect(second?.accessToken).not.toBe(first?.accessToken);
    expect(second?.refreshToken).toBeTypeOf("string");
    expect(second?.refreshToken).not.toBe(first?.refreshToken);
    const replay = await fetch(`${rig.oidc.issuer}/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: first?.refreshToken ?? "", client_id: first?.clientId ?? "" }).toString(),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { error: string }).error).toBe("invalid_grant");
  });

  it("steps up on 403 insufficient_scope: the union of scopes, offline_access again, a refresh token kept", async () => {
    const rig = await start();
    const user = createOidcUser({ login: "alice" });
    const auth = userLogin(rig, user);
    const client = await open(rig, era, auth);
    expect(text(await client.callTool("write", {}))).toBe("written");
    expect(rig.oidc.authorizations.map((q) => q.get("scope"))).toEqual(["mcp:read offline_access", "mcp:read mcp:write offline_access"]);
    expect(rig.principals.at(-1)?.scopes).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
    expect((await auth.tokens())?.refreshToken).toBeTypeOf("string");
  });

  it("ends a denied consent as AUTHORIZATION_DENIED, showing the consent page once", async () => {
    const rig = await start();
    const user = createOidcUser({ login: "alice", consent: "deny" });
    const failure: unknown = await open(rig, era, userLogin(rig, user)).catch((error: unknown) => error);
    expect(isOAuthError(failure, OAuthFaultCode.AuthorizationDenied)).toBe(true);
    expect(user.pagesOpened).toBe(1);
  });

  it("waits for a user slower than the connect timeout: one page, the loopback listener kept open", async () => {
    const rig = await start();
    const user = createOidcUser({ login: "bob", thinkMs: 600, visitRedirect: true });
    const opened: URL[] = [];
    const auth = createOAuth({
      serverUrl: rig.url,
      redirect: createLoopbackRedirect({ open: (url) => void opened.push(url), onAuthorizationUrl: (url) => void user.authorize({ url, redirectUri: url.searchParams.get("redirect_uri") ?? "" }) }),
    });
    const client = await open(rig, era, auth, { connectTimeoutMs: 250, retries: 10 });
    expect(text(await client.callTool("whoami", {}))).toBe("you are bob");
    expect(opened).toHaveLength(1);
    expect(user.pagesOpened).toBe(1);
  });

  it("fails a login nobody completes with its own TIMEOUT, not the connect timeout", async () => {
    const rig = await start();
    const auth = createOAuth({ serverUrl: rig.url, authorizationTimeoutMs: 200, redirect: createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: () => new Promise<URL>(() => {}) }) });
    const failure: unknown = await open(rig, era, auth, { connectTimeoutMs: 5_000 }).catch((error: unknown) => error);
    expect(isOAuthError(failure, OAuthFaultCode.Timeout)).toBe(true);
  });

  const machines = [
    { method: "client_secret_basic", client: { client_id: "robot-basic", client_secret: "basic-secret-0123456789" } },
    { method: "client_secret_post", client: { client_id: "robot-post", client_secret: "post-secret-0123456789" } },
  ] as const;
  for (const { method, client: registered } of machines) {
    it(`client credentials with ${method}`, async () => {
      const rig = await start([{ ...registered, grant_types: ["client_credentials"], redirect_uris: [], response_types: [], token_endpoint_auth_method: method }]);
      const auth = createClientCredentialsAuth({ serverUrl: rig.url, clientId: registered.client_id, clientSecret: registered.client_secret, tokenEndpointAuthMethod: method });
      const client = await open(rig, era, auth);
      expect(text(await client.callTool("whoami", {}))).toBe(`you are ${registered.client_id}`);
      expect(rig.oidc.tokenRequests.map((r) => [r.grantType, r.resource])).toEqual([["client_credentials", rig.url]]);
    });
  }

  it("client credentials with private_key_jwt", async () => {
    const key = createClientKey("robot-key");
    const rig = await start([{
      client_id: "robot-jwt", grant_types: ["client_credentials"], redirect_uris: [], response_types: [],
      token_endpoint_auth_method: "private_key_jwt", token_endpoint_auth_signing_alg: "ES256", jwks: { keys: [key.publicJwk] },
    }]);
    const auth = createClientCredentialsAuth({ serverUrl: rig.url, clientId: "robot-jwt", signingKey: { key: key.privateKeyPem, algorithm: "ES256", keyId: "robot-key" } });
    const client = await open(rig, era, auth);
    expect(text(await client.callTool("whoami", {}))).toBe("you are robot-jwt");
  });
});
