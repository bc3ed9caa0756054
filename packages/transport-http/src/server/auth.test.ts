import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { JsonRpcRequest } from "@proto/jsonrpc";
import { createJwtVerifier } from "../auth/jwt";
import { AUDIENCE, ISSUER, jwksOf, makeKey, mint, serveJwks } from "../auth/testing/keys";
import type { TestKey } from "../auth/testing/keys";
import { createEchoServer } from "./testing/echo-server";
import type { EchoServer } from "./testing/echo-server";
import { initBody, POST_HEADERS, rpc, serve } from "./testing/net";
import type { Running } from "./testing/net";
import type { NodeHttpHandlerOptions } from "./node-adapter";

const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp";

/** tools/call of `echo` needs tools.echo; everything else needs nothing. */
function scopesFor(request: JsonRpcRequest): readonly string[] | undefined {
  const name = (request.params as { name?: unknown } | undefined)?.name;
  return request.method === "tools/call" && name === "echo" ? ["tools.echo"] : undefined;
}

describe("auth on the handler (real sockets)", () => {
  let key: TestKey;
  let running: Running | undefined;
  let echo: EchoServer;
  beforeAll(async () => {
    key = await makeKey("k1");
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<NodeHttpHandlerOptions> = {}): Promise<Running> {
    echo = createEchoServer();
    const verifier = createJwtVerifier({ jwks: jwksOf(key), issuer: ISSUER, audience: AUDIENCE });
    running = await serve({
      connect: echo.connect,
      authenticate: verifier.authenticate,
      protectedResource: { resource: AUDIENCE, authorizationServers: [ISSUER], scopesSupported: ["tools.echo"] },
      scopesFor,
      ...options,
    });
    return running;
  }

  function post(r: Running, body: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(r.url, { method: "POST", headers: { ...POST_HEADERS, ...headers }, body });
  }

  async function open(r: Running, token: string): Promise<Record<string, string>> {
    const response = await post(r, initBody(), { authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    await response.text();
    return { authorization: `Bearer ${token}`, "mcp-session-id": response.headers.get("mcp-session-id") ?? "" };
  }

  it("answers 401 with a Bearer challenge pointing at the metadata, for no token and for a bad one", async () => {
    const r = await start();
    const none = await post(r, initBody());
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer scope="tools.echo", resource_metadata="${METADATA_URL}"`);
    const bad = await post(r, initBody(), { authorization: "Bearer not.a.token" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(bad.headers.get("www-authenticate")).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(echo.peers).toHaveLength(0);
  });

  it("refuses an expired token and a token for another audience", async () => {
    const r = await start();
    expect((await post(r, initBody(), { authorization: `Bearer ${await mint(key, { exp: 1_000 })}` })).status).toBe(401);
    expect((await post(r, initBody(), { authorization: `Bearer ${await mint(key, { aud: "https://other.example.com" })}` })).status).toBe(401);
  });

  it("serves RFC 9728 metadata at the path-inserted and the root well-known URIs", async () => {
    const r = await start();
    const base = r.url.replace(/\/mcp$/, "");
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.json()).toEqual({
        resource: AUDIENCE,
        authorization_servers: [ISSUER],
        bearer_methods_supported: ["header"],
        scopes_supported: ["tools.echo"],
      });
    }
  });

  it("hands the principal to every handler", async () => {
    const r = await start();
    const headers = await open(r, await mint(key, { sub: "bob", scope: "tools.echo" }));
    const response = await post(r, rpc(1, "tools/call", { name: "whoami" }), headers);
    expect(await response.json()).toMatchObject({ result: { content: [{ text: "bob" }] } });
    expect(echo.calls[0]?.principal).toMatchObject({ subject: "bob", scopes: ["tools.echo"] });
    expect(echo.calls[0]?.sessionId).toBe(headers["mcp-session-id"]);
  });

  it("answers a call without its scope 403 insufficient_scope, naming granted and needed scopes", async () => {
    const r = await start();
    const headers = await open(r, await mint(key, { scope: "tools.read" }));
    const refused = await post(r, rpc(1, "tools/call", { name: "echo", arguments: { text: "x" } }), headers);
    expect(refused.status).toBe(403);
    const challenge = refused.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="tools.read tools.echo"');
    expect(challenge).toContain(`resource_metadata="${METADATA_URL}"`);
    expect(echo.calls).toHaveLength(0); // refused before delivery
    expect((await post(r, rpc(2, "tools/call", { name: "whoami" }), headers)).status).toBe(200);
  });

  it("lets the same principal go on with a refreshed token (step-up)", async () => {
    const r = await start();
    const headers = await open(r, await mint(key, { scope: "tools.read" }));
    const upgraded = { ...headers, authorization: `Bearer ${await mint(key, { scope: "tools.read tools.echo" })}` };
    const response = await post(r, rpc(1, "tools/call", { name: "echo", arguments: { text: "ok" } }), upgraded);
    expect(response.status).toBe(200);
  });

  it("answers another principal's valid session id exactly like an unknown one (404)", async () => {
    const r = await start();
    const alice = await open(r, await mint(key, { sub: "alice" }));
    const mallory = { ...alice, authorization: `Bearer ${await mint(key, { sub: "mallory" })}` };
    const stolen = await post(r, rpc(1, "ping"), mallory);
    expect(stolen.status).toBe(404);
    const unknown = await post(r, rpc(1, "ping"), { ...mallory, "mcp-session-id": "0".repeat(32) });
    expect(await stolen.text()).toBe(await unknown.text());
    const get = await fetch(r.url, { headers: { accept: "text/event-stream", ...mallory } });
    expect(get.status).toBe(404);
    const del = await fetch(r.url, { method: "DELETE", headers: mallory });
    expect(del.status).toBe(404);
    expect(r.handler.sessionCount).toBe(1);
    expect((await post(r, rpc(2, "ping"), alice)).status).toBe(200);
  });

  it("binds a session to sub and client_id apart: a client token whose client_id is a user's sub cannot use that user's session", async () => {
    const r = await start();
    const alice = await open(r, await mint(key, { sub: "alice", client_id: "app" }));
    const clientNamedAlice = { ...alice, authorization: `Bearer ${await mint(key, { sub: undefined, client_id: "alice" })}` };
    expect((await post(r, rpc(1, "ping"), clientNamedAlice)).status).toBe(404);
    const aliceThroughOtherApp = { ...alice, authorization: `Bearer ${await mint(key, { sub: "alice", client_id: "other-app" })}` };
    expect((await post(r, rpc(2, "ping"), aliceThroughOtherApp)).status).toBe(404);
    const refreshed = { ...alice, authorization: `Bearer ${await mint(key, { sub: "alice", client_id: "app", scope: "more" })}` };
    expect((await post(r, rpc(3, "ping"), refreshed)).status).toBe(200);
  });

  it("caps the live sessions of one principal (429), not of others", async () => {
    const r = await start({ maxSessionsPerPrincipal: 2 });
    const alice = await mint(key, { sub: "alice" });
    await open(r, alice);
    const second = await open(r, alice);
    const refused = await post(r, initBody(), { authorization: `Bearer ${alice}` });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect((await post(r, initBody(), { authorization: `Bearer ${await mint(key, { sub: "bob" })}` })).status).toBe(200);
    await fetch(r.url, { method: "DELETE", headers: second });
    expect((await post(r, initBody(), { authorization: `Bearer ${alice}` })).status).toBe(200);
  });

  it("answers 503 (not 401) when the JWKS cannot be fetched", async () => {
    const jwks = await serveJwks(jwksOf(key));
    const url = jwks.url;
    await jwks.close();
    const verifier = createJwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: AUDIENCE, jwksTimeoutMs: 2_000 });
    const r = await start({ authenticate: verifier.authenticate });
    const response = await post(r, initBody(), { authorization: `Bearer ${await mint(key)}` });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).not.toBeNull();
  });
});
