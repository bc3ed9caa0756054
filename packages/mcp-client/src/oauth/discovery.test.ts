import type { ServerResponse } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { discover } from "./discovery";
import { OAuthFaultCode } from "./errors";
import { type FixtureServer, json, startServer } from "./fixtures/http-fixture";
import type { HttpSettings } from "./http";

const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

const http: HttpSettings = { fetch: (input, init) => fetch(input, init), timeoutMs: 10_000, maxBytes: 64 * 1024, allowInsecureHttp: false };

/** A server answering scripted paths; every request is logged. */
async function scripted(routes: (origin: string) => Record<string, (response: ServerResponse) => void>) {
  const seen: string[] = [];
  let table: Record<string, (response: ServerResponse) => void> = {};
  const server = await startServer((request, response) => {
    const path = request.url ?? "/";
    seen.push(path);
    const route = table[path];
    if (route === undefined) return json(response, 404, {});
    route(response);
  });
  table = routes(server.origin);
  open.push(server);
  return { origin: server.origin, seen };
}

const asMetadata = (issuer: string) => ({ issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, code_challenge_methods_supported: ["S256"] });

describe("discover", () => {
  it("uses resource_metadata from the challenge first and keeps the resource the metadata names", async () => {
    const s = await scripted((origin) => ({
      "/meta.json": (r) => json(r, 200, { resource: `${origin}/mcp`, authorization_servers: [`${origin}/as`], scopes_supported: ["a"] }),
      "/.well-known/oauth-authorization-server/as": (r) => json(r, 200, asMetadata(`${origin}/as`)),
    }));
    const found = await discover({ http, server: new URL(`${s.origin}/mcp`), resourceMetadataUrl: `${s.origin}/meta.json` });
    expect(found).toMatchObject({ resource: `${s.origin}/mcp`, issuer: `${s.origin}/as`, source: "protected-resource", resourceMetadataUrl: `${s.origin}/meta.json` });
    expect(s.seen).toEqual(["/meta.json", "/.well-known/oauth-authorization-server/as"]);
  });

  it("falls back from a failing resource_metadata URL and from 5xx answers to the well-known locations", async () => {
    const s = await scripted((origin) => ({
      "/meta.json": (r) => json(r, 500, {}),
      "/.well-known/oauth-protected-resource/mcp": (r) => json(r, 503, {}),
      "/.well-known/oauth-protected-resource": (r) => json(r, 200, { resource: origin, authorization_servers: [origin] }),
      "/.well-known/oauth-authorization-server": (r) => json(r, 404, {}),
      "/.well-known/openid-configuration": (r) => json(r, 200, asMetadata(origin)),
    }));
    const warnings: string[] = [];
    const found = await discover({ http, server: new URL(`${s.origin}/mcp`), resourceMetadataUrl: `${s.origin}/meta.json`, logger: { warn: (m) => warnings.push(m), error: () => undefined } });
    expect(found.issuer).toBe(s.origin);
    expect(s.seen).toEqual([
      "/meta.json",
      "/.well-known/oauth-protected-resource/mcp",
      "/.well-known/oauth-protected-resource",
      "/.well-known/oauth-authorization-server",
      "/.well-known/openid-configuration",
    ]);
    expect(warnings).toHaveLength(2);
  });

  it("lets the host pick among several authorization servers", async () => {
    const s = await scripted((origin) => ({
      "/.well-known/oauth-protected-resource/mcp": (r) => json(r, 200, { resource: `${origin}/mcp`, authorization_servers: [`${origin}/one`, `${origin}/two`] }),
      "/.well-known/oauth-authorization-server/two": (r) => json(r, 200, asMetadata(`${origin}/two`)),
    }));
    const found = await discover({ http, server: new URL(`${s.origin}/mcp`), selectIssuer: (issuers) => issuers[1] ?? "" });
    expect(found.issuer).toBe(`${s.origin}/two`);
    await expect(discover({ http, server: new URL(`${s.origin}/mcp`), selectIssuer: () => "https://elsewhere" })).rejects.toThrow(TypeError);
  });

  it("refuses documents that lie or cannot be used", async () => {
    const s = await scripted((origin) => ({
      "/.well-known/oauth-protected-resource/none": (r) => json(r, 200, { resource: `${origin}/none`, authorization_servers: [] }),
      "/.well-known/oauth-protected-resource/query": (r) => json(r, 200, { resource: `${origin}/query`, authorization_servers: [`${origin}/as?x=1`] }),
      "/.well-known/oauth-protected-resource/big": (r) => json(r, 200, { resource: `${origin}/big`, pad: "x".repeat(100_000) }),
      "/.well-known/oauth-protected-resource/missing": (r) => json(r, 200, { resource: `${origin}/missing`, authorization_servers: [`${origin}/nothing`] }),
      "/.well-known/oauth-protected-resource/insecure": (r) => json(r, 200, { resource: `${origin}/insecure`, authorization_servers: [`${origin}/bad`] }),
      "/.well-known/oauth-authorization-server/bad": (r) => json(r, 200, { ...asMetadata(`${origin}/bad`), token_endpoint: "http://tokens.example/token" }),
      "/.well-known/oauth-protected-resource/text": (r) => r.writeHead(200, { "content-type": "text/html" }).end("<html>"),
    }));
    const at = (path: string) => discover({ http, server: new URL(`${s.origin}/${path}`) });
    await expect(at("none")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidMetadata });
    await expect(at("query")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidMetadata });
    await expect(at("big")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidMetadata, message: expect.stringContaining("larger than") });
    await expect(at("missing")).rejects.toMatchObject({ code: OAuthFaultCode.DiscoveryFailed });
    await expect(at("insecure")).rejects.toMatchObject({ code: OAuthFaultCode.InsecureEndpoint });
    await expect(at("text")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidMetadata });
  });

  it("refuses a resource_metadata URL that is plain http on another host", async () => {
    await expect(discover({ http, server: new URL("https://mcp.example/mcp"), resourceMetadataUrl: "http://evil.example/prm" })).rejects.toMatchObject({
      code: OAuthFaultCode.InsecureEndpoint,
    });
  });

  it("reports an unreachable server as DISCOVERY_FAILED and honours abort", async () => {
    await expect(discover({ http, server: new URL("http://127.0.0.1:1/mcp") })).rejects.toMatchObject({ code: OAuthFaultCode.DiscoveryFailed });
    const controller = new AbortController();
    controller.abort();
    await expect(discover({ http, server: new URL("http://127.0.0.1:1/mcp"), signal: controller.signal })).rejects.toMatchObject({ code: OAuthFaultCode.Aborted });
  });

  it("treats a server without Protected Resource Metadata as 2025-03-26, and refuses it over plain http elsewhere", async () => {
    const s = await scripted(() => ({}));
    const found = await discover({ http, server: new URL(`${s.origin}/v1/mcp`) });
    expect(found).toMatchObject({ source: "legacy-defaults", issuer: s.origin, resource: `${s.origin}/v1/mcp` });
    expect(found.metadata.authorization_endpoint).toBe(`${s.origin}/authorize`);
    expect(s.seen).toEqual(["/.well-known/oauth-protected-resource/v1/mcp", "/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"]);
    const insecure = { ...http, fetch: async () => new Response("{}", { status: 404 }) };
    await expect(discover({ http: insecure, server: new URL("http://mcp.example/mcp") })).rejects.toMatchObject({ code: OAuthFaultCode.InsecureEndpoint });
  });
});
