import { afterEach, describe, expect, it } from "vitest";
import { type AuthServerOptions, createAuthHandler, startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import type { FixtureServer } from "./fixtures/http-fixture";
import { type ResourceServerOptions, startResourceServer } from "./fixtures/resource-server";
import { createClientCredentialsAuth, createOAuth, type OAuthOptions } from "./provider";
import { createHeadlessRedirect, followRedirects } from "./redirect";
import { OAuthFaultCode } from "./errors";

const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function setup(as: AuthServerOptions = {}, rs: Omit<ResourceServerOptions, "auth"> = {}) {
  const auth = await startAuthServer(as);
  const server = await startResourceServer({ auth, ...rs });
  open.push(auth, server);
  return { auth, server };
}

const redirect = createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: followRedirects() });

function provider(serverUrl: string, extra: Partial<OAuthOptions> = {}) {
  return createOAuth({ serverUrl, redirect, ...extra });
}

describe("createOAuth: the authorization code flow", () => {
  it("discovers, registers, authorizes with PKCE S256 and resource, and retries with the token", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url);
    const result = await call(oauth, server.url);
    expect(result.status).toBe(200);
    expect(auth.log.registrations).toHaveLength(1);
    expect(auth.log.registrations[0]).toMatchObject({ redirect_uris: ["http://127.0.0.1:9/callback"], token_endpoint_auth_method: "none" });
    const query = auth.log.authorizations[0];
    expect(query?.get("code_challenge_method")).toBe("S256");
    expect(query?.get("resource")).toBe(server.url);
    expect(query?.get("state")?.length).toBeGreaterThanOrEqual(43);
    expect(query?.has("scope")).toBe(false);
    const token = auth.log.tokenRequests[0]?.form;
    expect(token?.get("resource")).toBe(server.url);
    expect(token?.get("code_verifier")?.length).toBe(43);
    expect(server.prmRequests).toEqual(["/.well-known/oauth-protected-resource/mcp"]);
    expect(server.bearerTokens[0]).toBeUndefined();
    expect(server.bearerTokens[1]).toMatch(/^at-/);
  });

  it("uses the challenge scope first, then scopes_supported, and omits scope when neither exists", async () => {
    const fromChallenge = await setup({}, { challengeScope: "files:read", scopesSupported: ["a", "b"] });
    await call(provider(fromChallenge.server.url), fromChallenge.server.url);
    expect(fromChallenge.auth.log.authorizations[0]?.get("scope")).toBe("files:read");

    const fromMetadata = await setup({}, { scopesSupported: ["a", "b"] });
    await call(provider(fromMetadata.server.url), fromMetadata.server.url);
    expect(fromMetadata.auth.log.authorizations[0]?.get("scope")).toBe("a b");

    const configured = await setup({}, { scopesSupported: ["a", "b"] });
    await call(provider(configured.server.url, { scope: "c" }), configured.server.url);
    expect(configured.auth.log.authorizations[0]?.get("scope")).toBe("c");
  });

  it("adds offline_access only when the authorization server lists it", async () => {
    const listed = await setup({ scopesSupported: ["a", "offline_access"] }, { scopesSupported: ["a"] });
    await call(provider(listed.server.url), listed.server.url);
    expect(listed.auth.log.authorizations[0]?.get("scope")).toBe("a offline_access");
    const optedOut = await setup({ scopesSupported: ["a", "offline_access"] }, { scopesSupported: ["a"] });
    await call(provider(optedOut.server.url, { offlineAccess: false }), optedOut.server.url);
    expect(optedOut.auth.log.authorizations[0]?.get("scope")).toBe("a");
  });

  it("uses a Client ID Metadata Document URL when the server supports them, and registers nothing", async () => {
    const { auth, server } = await setup({ cimd: true });
    const oauth = provider(server.url, { clientMetadataUrl: "https://client.example/oauth/metadata.json" });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.registrations).toHaveLength(0);
    expect(auth.log.authorizations[0]?.get("client_id")).toBe("https://client.example/oauth/metadata.json");
  });

  it("falls back to dynamic registration when the server does not support metadata documents", async () => {
    const { auth, server } = await setup();
    await call(provider(server.url, { clientMetadataUrl: "https://client.example/oauth/metadata.json" }), server.url);
    expect(auth.log.registrations).toHaveLength(1);
  });

  it("uses pre-registered credentials first, with client_secret_basic", async () => {
    const { auth, server } = await setup({ registration: false, authMethods: ["client_secret_basic"], preRegistered: [{ clientId: "pre", clientSecret: "s3cr:t" }] });
    const oauth = provider(server.url, { clients: { clientId: "pre", clientSecret: "s3cr:t" } });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.tokenRequests[0]?.method).toBe("client_secret_basic");
    expect(auth.log.tokenRequests[0]?.form.has("client_secret")).toBe(false);
  });

  it("ignores pre-registered credentials bound to another issuer", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url, { clients: { clientId: "pre", clientSecret: "x", issuer: "https://other.example" } });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.registrations).toHaveLength(1);
  });

  it.each([
    ["client_secret_basic", "client_secret_basic"],
    ["client_secret_post", "client_secret_post"],
    ["none", "none"],
  ])("authenticates at the token endpoint with %s when that is all the server supports", async (only, expected) => {
    const { auth, server } = await setup({ authMethods: [only] });
    expect((await call(provider(server.url), server.url)).status).toBe(200);
    expect(auth.log.tokenRequests[0]?.method).toBe(expected);
  });

  it("refuses with NO_CLIENT_IDENTITY when nothing identifies the client", async () => {
    const { server } = await setup({ registration: false });
    await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.NoClientIdentity });
  });

  it("keeps the registration: a second provider on the same store does not register again", async () => {
    const { createMemoryTokenStore } = await import("./token-store");
    const store = createMemoryTokenStore();
    const { auth, server } = await setup();
    await call(provider(server.url, { store }), server.url);
    auth.revokeAccessTokens();
    auth.revokeRefreshTokens();
    await call(provider(server.url, { store }), server.url);
    expect(auth.log.registrations).toHaveLength(1);
    expect(auth.log.authorizations).toHaveLength(2);
  });
});

describe("createOAuth: refusals", () => {
  it("refuses a resource mismatch before any authorization request", async () => {
    const { auth, server } = await setup({}, { resourceOverride: "https://evil.example.com/mcp" });
    await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.ResourceMismatch });
    expect(auth.log.authorizations).toHaveLength(0);
  });

  it("refuses an issuer mismatch in the metadata", async () => {
    const { auth, server } = await setup({ issuerOverride: "https://evil.example.com" });
    await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.IssuerMismatch });
    expect(auth.log.authorizations).toHaveLength(0);
  });

  it("refuses a server that does not advertise S256", async () => {
    for (const methods of [null, ["plain"]] as const) {
      const { auth, server } = await setup({ codeChallengeMethods: methods });
      await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.PkceUnsupported });
      expect(auth.log.authorizations).toHaveLength(0);
    }
  });

  it("refuses a forged state, a denial, a missing code and a wrong iss", async () => {
    const cases = [
      ["bad-state", OAuthFaultCode.StateMismatch],
      ["deny", OAuthFaultCode.AuthorizationDenied],
      ["no-code", OAuthFaultCode.InvalidCallback],
      ["wrong-iss", OAuthFaultCode.IssuerMismatch],
    ] as const;
    for (const [behaviour, code] of cases) {
      const { auth, server } = await setup({ authorize: behaviour, issParameter: behaviour === "wrong-iss" });
      await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code });
      expect(auth.log.tokenRequests).toHaveLength(0);
    }
  });

  it("refuses a refused or malformed dynamic registration with REGISTRATION_FAILED", async () => {
    const answers = [
      new Response(JSON.stringify({ error: "invalid_client_metadata", error_description: "no" }), { status: 400 }),
      new Response(JSON.stringify({ client_secret: "s" }), { status: 201 }),
    ];
    for (const answer of answers) {
      const { auth, server } = await setup();
      const fetchWithBadRegistration = (input: string | URL, init?: RequestInit) =>
        String(input).endsWith("/register") ? Promise.resolve(answer.clone()) : fetch(input, init);
      await expect(call(provider(server.url, { fetch: fetchWithBadRegistration }), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.RegistrationFailed });
      expect(auth.log.authorizations).toHaveLength(0);
    }
  });

  it("refuses an authorization response that comes back to another URL", async () => {
    const { auth, server } = await setup();
    const elsewhere = createHeadlessRedirect({
      redirectUri: "http://127.0.0.1:9/callback",
      authorize: async (prompt) => {
        const url = await followRedirects()(prompt);
        return url.href.replace("/callback", "/other");
      },
    });
    await expect(call(createOAuth({ serverUrl: server.url, redirect: elsewhere }), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.InvalidCallback });
    expect(auth.log.tokenRequests).toHaveLength(0);
  });

  it("accepts the RFC 9207 iss when it is right", async () => {
    const { server } = await setup({ issParameter: true });
    expect((await call(provider(server.url), server.url)).status).toBe(200);
  });

  it("refuses plain-http authorization servers that are not loopback", async () => {
    const { server } = await setup({}, { authorizationServers: ["http://auth.example.com"] });
    await expect(call(provider(server.url), server.url)).rejects.toMatchObject({ code: OAuthFaultCode.InsecureEndpoint });
  });

  it("says AUTHORIZATION_REQUIRED without a redirect handler, and authorize() needs one too", async () => {
    const { server } = await setup();
    const oauth = createOAuth({ serverUrl: server.url });
    await expect(call(oauth, server.url)).rejects.toMatchObject({ code: OAuthFaultCode.AuthorizationRequired });
    await expect(oauth.authorize()).rejects.toMatchObject({ code: OAuthFaultCode.AuthorizationRequired });
  });

  it("refuses to authorize for another origin than its server", async () => {
    const { server } = await setup();
    await expect(provider(server.url).unauthorized({ status: 401, challenge: "Bearer", url: new URL("https://other.example/mcp") })).rejects.toMatchObject({
      code: OAuthFaultCode.ResourceMismatch,
    });
  });

  it("returns false for a 403 that is not insufficient_scope", async () => {
    const { server } = await setup();
    expect(await provider(server.url).unauthorized({ status: 403, challenge: 'Bearer error="invalid_token"', url: new URL(server.url) })).toBe(false);
  });

  it("rejects bad options with TypeErrors that say what to do", () => {
    expect(() => createOAuth({ serverUrl: "not a url" })).toThrow(TypeError);
    expect(() => createOAuth({ serverUrl: "https://x.example/mcp", clientMetadataUrl: "http://x.example/c.json" })).toThrow(/https URL with a path/);
    expect(() => createOAuth({ serverUrl: "https://x.example/mcp", clients: { clientId: "" } })).toThrow(/clientId/);
    expect(() => createOAuth({ serverUrl: "https://x.example/mcp", requestTimeoutMs: -1 })).toThrow(/requestTimeoutMs/);
    expect(() => createClientCredentialsAuth({ serverUrl: "https://x.example/mcp", clientId: "c" })).toThrow(/clientSecret or signingKey/);
  });
});

describe("createOAuth: tokens over time", () => {
  it("refreshes once on a 401 instead of authorizing again, with resource", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url);
    await call(oauth, server.url);
    auth.revokeAccessTokens();
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.authorizations).toHaveLength(1);
    const refresh = auth.log.tokenRequests[1]?.form;
    expect(refresh?.get("grant_type")).toBe("refresh_token");
    expect(refresh?.get("resource")).toBe(server.url);
  });

  it("authorizes again when the refresh token is refused too", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url);
    await call(oauth, server.url);
    auth.revokeAccessTokens();
    auth.revokeRefreshTokens();
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.authorizations).toHaveLength(2);
  });

  it("refreshes before expiry, without waiting for a 401, but never in the first half of a short lifetime", async () => {
    let now = Date.now();
    const { auth, server } = await setup({ ttl: 30 });
    const oauth = provider(server.url, { refreshBeforeExpiryMs: 60_000, now: () => now });
    await call(oauth, server.url);
    const before = (await oauth.tokens())?.accessToken;
    expect(await oauth.token()).toBe(before);
    now += 16_000;
    const next = await oauth.token();
    expect(next).not.toBe(before);
    expect(auth.log.tokenRequests.map((r) => r.form.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(server.bearerTokens.at(-1)).toBe(next);
  });

  it("sends nothing once a token without a refresh token has expired", async () => {
    let now = Date.now();
    const { server } = await setup({ ttl: 100, refreshTokens: false });
    const oauth = provider(server.url, { now: () => now });
    await call(oauth, server.url);
    expect(await oauth.token()).toMatch(/^at-/);
    now += 101_000;
    expect(await oauth.token()).toBeUndefined();
  });

  it("steps up on 403 insufficient_scope with the union of scopes", async () => {
    const { auth, server } = await setup({}, { challengeScope: "mcp:basic", requiredScopes: { "tools/call": ["mcp:basic", "mcp:write"] } });
    const oauth = provider(server.url);
    expect((await call(oauth, server.url, "tools/list")).status).toBe(200);
    expect((await call(oauth, server.url, "tools/call")).status).toBe(200);
    expect(auth.log.authorizations.map((q) => q.get("scope"))).toEqual(["mcp:basic", "mcp:basic mcp:write"]);
  });

  it("stops after maxAuthorizationAttempts when the server never accepts", async () => {
    const { auth, server } = await setup({ withhold: ["mcp:admin"] }, { challengeScope: "mcp:admin", requiredScopes: { "tools/list": ["mcp:admin"] } });
    const oauth = provider(server.url);
    await expect(call(oauth, server.url, "tools/list", 10)).rejects.toMatchObject({ code: OAuthFaultCode.AttemptsExceeded });
    expect(auth.log.authorizations).toHaveLength(3);
  });

  it("runs one authorization for concurrent 401s", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url);
    const results = await Promise.all([call(oauth, server.url), call(oauth, server.url), call(oauth, server.url)]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(auth.log.authorizations).toHaveLength(1);
  });

  it("clear({ revoke: true }) revokes the refresh and access tokens with client authentication", async () => {
    const { auth, server } = await setup({ authMethods: ["client_secret_post"] });
    const oauth = provider(server.url);
    await oauth.authorize();
    const held = await oauth.tokens();
    await oauth.clear({ revoke: true });
    expect(auth.log.revocations.map((form) => [form.get("token_type_hint"), form.get("token"), form.has("client_secret")])).toEqual([
      ["refresh_token", held?.refreshToken, true],
      ["access_token", held?.accessToken, true],
    ]);
    expect(auth.tokens.has(held?.accessToken ?? "")).toBe(false);
    expect(await oauth.tokens()).toBeUndefined();
  });

  it("authorize() logs in ahead of time and clear() forgets", async () => {
    const { auth, server } = await setup();
    const oauth = provider(server.url);
    await oauth.authorize();
    expect(await oauth.token()).toMatch(/^at-/);
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(server.bearerTokens[0]).toMatch(/^at-/);
    await oauth.clear();
    expect(await oauth.token()).toBeUndefined();
    await oauth.clear({ registrations: true });
    await oauth.authorize();
    expect(auth.log.registrations).toHaveLength(2);
  });
});

describe("discovery variants through the provider", () => {
  it.each([
    ["path PRM, OAuth metadata", {}, { prm: "path" }],
    ["root PRM without resource_metadata, issuer path insertion", { prefix: "/tenant1" }, { prm: "root", challengeMetadata: false }],
    ["path PRM without resource_metadata, OpenID insertion", { prefix: "/tenant1", metadataAt: "openid-insert" }, { challengeMetadata: false }],
    ["custom PRM location, OpenID path appending", { prefix: "/tenant1", metadataAt: "openid-append" }, { prm: "custom" }],
    ["OpenID discovery at the root", { metadataAt: "openid-insert" }, {}],
  ] as const)("%s", async (_name, as, rs) => {
    const { auth, server } = await setup(as, rs);
    expect((await call(provider(server.url), server.url)).status).toBe(200);
    expect(auth.log.authorizations).toHaveLength(1);
  });

  it("serves a 2025-03-26 server: no PRM, metadata at the origin, issuer not checked", async () => {
    const auth = createAuthHandler({ prefix: "", issuerOverride: "https://somewhere.example/oauth" });
    const server = await startResourceServer({ auth, mountAuth: true, prm: "none" });
    open.push(server);
    // The issuer override also breaks the metadata's own endpoints only by name; the endpoints are the origin's.
    expect((await call(provider(server.url), server.url)).status).toBe(200);
    expect(auth.log.metadataRequests).toContain("/.well-known/oauth-authorization-server");
  });

  it("serves a 2025-03-26 server without metadata: the default /authorize, /token, /register", async () => {
    const auth = createAuthHandler({ metadataAt: "none" });
    const server = await startResourceServer({ auth, mountAuth: true, prm: "none" });
    open.push(server);
    expect((await call(provider(server.url), server.url)).status).toBe(200);
    expect(auth.log.registrations).toHaveLength(1);
    expect(auth.log.tokenRequests[0]?.form.get("resource")).toBe(server.url);
  });
});

describe("createClientCredentialsAuth", () => {
  it("gets a token with client_secret_basic and the resource parameter", async () => {
    const { auth, server } = await setup({ grantTypes: ["client_credentials"], authMethods: ["client_secret_basic"], preRegistered: [{ clientId: "svc", clientSecret: "pw" }] });
    const oauth = createClientCredentialsAuth({ serverUrl: server.url, clientId: "svc", clientSecret: "pw" });
    expect((await call(oauth, server.url)).status).toBe(200);
    const request = auth.log.tokenRequests[0];
    expect(request?.method).toBe("client_secret_basic");
    expect(request?.form.get("grant_type")).toBe("client_credentials");
    expect(request?.form.get("resource")).toBe(server.url);
  });

  it("gets a token with a private-key JWT the server verifies", async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", pair.privateKey)).toString("base64");
    const pem = `-----BEGIN PRIVATE KEY-----\n${pkcs8.replace(/(.{64})/g, "$1\n")}\n-----END PRIVATE KEY-----\n`;
    const other = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const jwks = [
      { ...(await crypto.subtle.exportKey("jwk", other.publicKey)), kid: "old" },
      { ...(await crypto.subtle.exportKey("jwk", pair.publicKey)), kid: "current" },
    ];
    const { auth, server } = await setup({ grantTypes: ["client_credentials"], authMethods: ["private_key_jwt"], signingAlgs: ["ES256"], jwks });
    const oauth = createClientCredentialsAuth({ serverUrl: server.url, clientId: "svc", signingKey: { key: pem, algorithm: "ES256", keyId: "current" } });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(auth.log.tokenRequests[0]?.method).toBe("private_key_jwt");
    const wrongKid = createClientCredentialsAuth({ serverUrl: server.url, clientId: "svc", signingKey: { key: pem, algorithm: "ES256", keyId: "old" } });
    await expect(call(wrongKid, server.url)).rejects.toMatchObject({ code: OAuthFaultCode.TokenRequestFailed, detail: { error: "invalid_client" } });
  });

  it("refuses when the server does not list the grant, or the signing algorithm", async () => {
    const noGrant = await setup({ grantTypes: ["authorization_code"] });
    await expect(call(createClientCredentialsAuth({ serverUrl: noGrant.server.url, clientId: "c", clientSecret: "s" }), noGrant.server.url)).rejects.toMatchObject({
      code: OAuthFaultCode.GrantUnsupported,
    });
    const noAlg = await setup({ grantTypes: ["client_credentials"], authMethods: ["private_key_jwt"], signingAlgs: ["RS256"] });
    const key = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])).privateKey;
    await expect(call(createClientCredentialsAuth({ serverUrl: noAlg.server.url, clientId: "c", signingKey: { key } }), noAlg.server.url)).rejects.toMatchObject({
      code: OAuthFaultCode.AuthMethodUnsupported,
    });
  });

  it("surfaces a refused client as TOKEN_REQUEST_FAILED with the OAuth error", async () => {
    const { server } = await setup({ grantTypes: ["client_credentials"], preRegistered: [{ clientId: "svc", clientSecret: "pw" }] });
    const oauth = createClientCredentialsAuth({ serverUrl: server.url, clientId: "svc", clientSecret: "wrong" });
    await expect(call(oauth, server.url)).rejects.toMatchObject({ code: OAuthFaultCode.TokenRequestFailed, detail: { error: "invalid_client", status: 401 } });
  });
});
