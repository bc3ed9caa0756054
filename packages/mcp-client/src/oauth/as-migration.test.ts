import { afterEach, describe, expect, it } from "vitest";
import { startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import type { FixtureServer } from "./fixtures/http-fixture";
import { startResourceServer } from "./fixtures/resource-server";
import { createOAuth } from "./provider";
import { createHeadlessRedirect, followRedirects } from "./redirect";
import { createMemoryTokenStore } from "./token-store";

/**
 * A resource that moves to another authorization server (its Protected Resource Metadata names a
 * new issuer; the old tokens stop working): the provider registers at the new server, never
 * presents the old server's client id there, and keeps the old registration under the old issuer.
 */
const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const redirect = createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: followRedirects() });

describe("createOAuth: the authorization server changes", () => {
  it("registers once at the new server and keeps the old server's client under its issuer", async () => {
    const first = await startAuthServer();
    const second = await startAuthServer();
    const server = await startResourceServer({ auth: first });
    open.push(first, second, server);
    const store = createMemoryTokenStore();
    const oauth = createOAuth({ serverUrl: server.url, redirect, store });
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(first.log.registrations).toHaveLength(1);
    const firstClient = first.log.authorizations[0]?.get("client_id");
    expect(firstClient).toBeDefined();

    server.useAuth(second);
    // The old server no longer refreshes for this resource, so the 401 leads to a new discovery.
    first.revokeRefreshTokens();
    expect((await call(oauth, server.url)).status).toBe(200);
    expect(server.prmRequests).toHaveLength(2);
    expect(second.log.registrations).toHaveLength(1);
    expect(first.log.registrations).toHaveLength(1);
    const secondClient = second.log.authorizations.at(-1)?.get("client_id");
    expect(secondClient).toBeDefined();
    expect(secondClient).not.toBe(firstClient);
    expect(second.log.authorizations.every((query) => query.get("client_id") !== firstClient)).toBe(true);
    expect(second.log.tokenRequests.every((request) => request.form.get("client_id") !== firstClient)).toBe(true);
    expect(server.bearerTokens.at(-1)).toMatch(/^at-/);
    expect(second.tokens.has(server.bearerTokens.at(-1) ?? "")).toBe(true);

    const stored = await store.load(server.url);
    expect(stored?.clients?.[first.issuer]?.clientId).toBe(firstClient);
    expect(stored?.clients?.[second.issuer]?.clientId).toBe(secondClient);
  });

  it("follows the move even while the old server still refreshes: a refreshed token refused too sends it to the new issuer", async () => {
    const first = await startAuthServer();
    const second = await startAuthServer();
    const server = await startResourceServer({ auth: first });
    open.push(first, second, server);
    const oauth = createOAuth({ serverUrl: server.url, redirect });
    expect((await call(oauth, server.url)).status).toBe(200);
    server.useAuth(second);
    // 401: refresh at the old server; its fresh token is refused too: the metadata names the new issuer.
    expect((await call(oauth, server.url, "tools/list", 2)).status).toBe(200);
    expect(first.log.tokenRequests.map((r) => r.form.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
    expect(second.log.registrations).toHaveLength(1);
    expect(second.tokens.has(server.bearerTokens.at(-1) ?? "")).toBe(true);
  });
});
