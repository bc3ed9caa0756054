/**
 * OAuth end to end: @proto/mcp-client with the OAuth provider of @proto/mcp-client/oauth,
 * over the Streamable HTTP client transport, against an @proto/mcp-server behind the Node HTTP
 * handler of @proto/transport-http (its `authenticate`, `protectedResource` and `scopesFor`
 * hooks), with the in-process authorization server fixture of the OAuth tests.
 */
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Principal } from "@proto/jsonrpc";
import { connect } from "@proto/mcp-client";
import {
  createClientCredentialsAuth,
  createHeadlessRedirect,
  createOAuth,
  followRedirects,
  isOAuthError,
  OAuthFaultCode,
  type OAuthProvider,
} from "@proto/mcp-client/oauth";
import { createServer } from "@proto/mcp-server";
import { createStreamableHttpClientTransport } from "@proto/transport-http";
import { createNodeHttpHandler, type NodeHttpHandler } from "@proto/transport-http/node";
import { afterEach, describe, expect, it } from "vitest";
import { type AuthServer, type AuthServerOptions, startAuthServer } from "../packages/mcp-client/src/oauth/fixtures/auth-server";

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A protected MCP server: `whoami` needs no scope, `write` needs `mcp:write`. */
async function protectedServer(auth: AuthServer, scopesSupported: readonly string[]): Promise<{ url: string; principals: Principal[] }> {
  const mcp = createServer({ name: "protected", version: "1.0.0" });
  const principals: Principal[] = [];
  mcp.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => `you are ${ctx.principal?.subject ?? "nobody"}`);
  mcp.tool({ name: "write", inputSchema: { type: "object" }, scopes: ["mcp:write"] }, () => "written");
  const http: HttpServer = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const handler: NodeHttpHandler = createNodeHttpHandler({
    connect: (transport) => mcp.connect(transport),
    authenticate: (request) => {
      const header = request.headers.get("authorization");
      const token = header?.startsWith("Bearer ") === true ? header.slice(7) : undefined;
      const issued = token === undefined ? undefined : auth.tokens.get(token);
      if (issued === undefined || issued.expiresAt < Date.now() || issued.resource !== url) return undefined;
      const principal: Principal = { subject: issued.clientId, scopes: issued.scope.split(" ").filter(Boolean), claims: { iss: auth.issuer } };
      principals.push(principal);
      return principal;
    },
    protectedResource: { resource: url, authorizationServers: [auth.issuer], scopesSupported },
    scopesFor: (request) => mcp.scopesFor(request),
  });
  http.on("request", handler);
  cleanup.push(async () => {
    await handler.close();
    await new Promise<void>((resolve) => {
      http.close(() => resolve());
      http.closeAllConnections();
    });
  });
  return { url, principals };
}

async function setup(options: AuthServerOptions = {}, scopesSupported: readonly string[] = ["mcp:read"]) {
  const auth = await startAuthServer(options);
  cleanup.push(() => auth.close());
  return { auth, ...(await protectedServer(auth, scopesSupported)) };
}

/** Both eras answer auth on the HTTP wire: 401 to authorize, 403 `insufficient_scope` to step up. */
const ERAS = ["2025-11-25", "2026-07-28"] as const;

async function open(url: string, auth: OAuthProvider, protocol: (typeof ERAS)[number]) {
  const client = await connect(createStreamableHttpClientTransport(url, { auth }), { info: { name: "e2e", version: "1.0.0" }, protocol });
  cleanup.push(() => client.close());
  expect(client.server?.protocolVersion).toBe(protocol);
  return client;
}

const text = (result: { content: readonly unknown[] }): string => (result.content[0] as { text?: string }).text ?? "";

describe.each(ERAS)("OAuth end to end over Streamable HTTP, MCP %s", (era) => {
  it("authorizes on the first 401, then steps up for a tool that needs more scope", async () => {
    const { auth, url, principals } = await setup();
    const oauth = createOAuth({ serverUrl: url, redirect: createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: followRedirects() }) });
    const client = await open(url, oauth, era);
    expect(text(await client.callTool("whoami", {}))).toMatch(/^you are client-/);
    expect(auth.log.authorizations.map((q) => q.get("scope"))).toEqual(["mcp:read"]);
    expect(text(await client.callTool("write", {}))).toBe("written");
    expect(auth.log.authorizations.map((q) => q.get("scope"))).toEqual(["mcp:read", "mcp:read mcp:write"]);
    expect(auth.log.authorizations.every((q) => q.get("resource") === url)).toBe(true);
    expect(principals.at(-1)?.scopes).toEqual(["mcp:read", "mcp:write"]);
  });

  it("keeps the session alive across a refresh after the server stops accepting the access token", async () => {
    const { auth, url } = await setup();
    const oauth = createOAuth({ serverUrl: url, redirect: createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: followRedirects() }) });
    const client = await open(url, oauth, era);
    await client.callTool("whoami", {});
    auth.revokeAccessTokens();
    expect(text(await client.callTool("whoami", {}))).toMatch(/^you are /);
    expect(auth.log.authorizations).toHaveLength(1);
    expect(auth.log.tokenRequests.map((r) => r.form.get("grant_type"))).toEqual(["authorization_code", "refresh_token"]);
  });

  it("authenticates a machine client with client credentials", async () => {
    const { url } = await setup({ grantTypes: ["client_credentials"], authMethods: ["client_secret_basic"], preRegistered: [{ clientId: "robot", clientSecret: "pw" }] });
    const client = await open(url, createClientCredentialsAuth({ serverUrl: url, clientId: "robot", clientSecret: "pw" }), era);
    expect(text(await client.callTool("whoami", {}))).toBe("you are robot");
  });

  it("fails the connection with the OAuth refusal when the metadata names another issuer", async () => {
    const { auth, url } = await setup({ issuerOverride: "https://evil.example" });
    const oauth = createOAuth({ serverUrl: url, redirect: createHeadlessRedirect({ redirectUri: "http://127.0.0.1:9/callback", authorize: followRedirects() }) });
    const failure: unknown = await connect(createStreamableHttpClientTransport(url, { auth: oauth }), { info: { name: "e2e", version: "1.0.0" }, protocol: era }).catch((error: unknown) => error);
    const causes: unknown[] = [];
    for (let error = failure; error instanceof Error; error = error.cause) causes.push(error);
    expect(causes.some((error) => isOAuthError(error, OAuthFaultCode.IssuerMismatch))).toBe(true);
    expect(auth.log.authorizations).toHaveLength(0);
  });
});
