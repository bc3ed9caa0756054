import { createHash, createPublicKey, type JsonWebKey as NodeJwk, verify } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createDpopProver, jwkThumbprint } from "./dpop";
import { createDpopFetch } from "./dpop-fetch";
import { OAuthFaultCode } from "./errors";
import { startAuthServer } from "./fixtures/auth-server";
import { call } from "./fixtures/call";
import { type FixtureServer, json, readBody, startServer } from "./fixtures/http-fixture";
import { startResourceServer } from "./fixtures/resource-server";
import { createClientCredentialsAuth } from "./provider";
import { requestToken } from "./token-endpoint";
import { createMemoryTokenStore, type StoredTokens } from "./token-store";

const open: FixtureServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

interface Decoded {
  readonly header: { typ: string; alg: string; jwk: JsonWebKey & { d?: string } };
  readonly claims: { jti: string; htm: string; htu: string; iat: number; ath?: string; nonce?: string };
}

/** Decodes a proof and checks its signature against its own `jwk` with node:crypto (an independent verifier). */
function decode(proof: string, hash = "sha256"): Decoded {
  const [header, claims, signature] = proof.split(".");
  const parsed = {
    header: JSON.parse(Buffer.from(header ?? "", "base64url").toString()) as Decoded["header"],
    claims: JSON.parse(Buffer.from(claims ?? "", "base64url").toString()) as Decoded["claims"],
  };
  const key = createPublicKey({ key: parsed.header.jwk as NodeJwk, format: "jwk" });
  const ok = verify(hash, Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature ?? "", "base64url"));
  expect(ok, "the proof's signature verifies with its jwk").toBe(true);
  return parsed;
}

const now = (): number => 1_700_000_000_000;

describe("DPoP proofs (RFC 9449 §4)", () => {
  it("signs a fresh dpop+jwt per request with the public key, htm, htu without query, iat, ath and the server's nonce", async () => {
    const prover = createDpopProver({}, now);
    const url = new URL("https://mcp.example/mcp?x=1#f");
    const first = decode(await prover.proof({ method: "post", url, accessToken: "tok" }));
    expect(first.header).toMatchObject({ typ: "dpop+jwt", alg: "ES256", jwk: { kty: "EC", crv: "P-256" } });
    expect(first.header.jwk.d).toBeUndefined();
    expect(first.claims).toMatchObject({ htm: "POST", htu: "https://mcp.example/mcp", iat: 1_700_000_000, ath: createHash("sha256").update("tok").digest("base64url") });
    expect(first.claims.nonce).toBeUndefined();
    prover.remember(url, { headers: new Headers({ "dpop-nonce": "n-1" }) });
    prover.remember(new URL("https://other.example/"), { headers: new Headers({ "dpop-nonce": "bad nonce" }) });
    const second = decode(await prover.proof({ method: "POST", url }));
    expect(second.claims.jti).not.toBe(first.claims.jti);
    expect(second.claims.nonce).toBe("n-1");
    expect(second.claims.ath).toBeUndefined();
    expect(decode(await prover.proof({ method: "GET", url: new URL("https://other.example/x") })).claims.nonce).toBeUndefined();
  });

  it("uses the RFC 7638 thumbprint and the key pair it is given", async () => {
    const { x, y } = (await crypto.subtle.exportKey("jwk", (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])).publicKey)) as JsonWebKey;
    const canonical = JSON.stringify({ crv: "P-256", kty: "EC", x, y });
    expect(await jwkThumbprint({ kty: "EC", crv: "P-256", x, y, ext: true } as JsonWebKey)).toBe(createHash("sha256").update(canonical).digest("base64url"));
    const keyPair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const prover = createDpopProver({ algorithm: "ES384", keyPair }, now);
    const { header } = decode(await prover.proof({ method: "POST", url: new URL("https://a.example/t") }), "sha384");
    expect(header).toMatchObject({ alg: "ES384", jwk: { kty: "EC", crv: "P-384" } });
    expect(await prover.thumbprint()).toBe(await jwkThumbprint(await crypto.subtle.exportKey("jwk", keyPair.publicKey)));
    expect(() => createDpopProver({ algorithm: "HS256" as never }, now)).toThrow(/JWS algorithm/);
  });
});

describe("DPoP at the token endpoint (RFC 9449 §5, §8)", () => {
  it("sends a proof, retries once with the server's nonce, and keeps the token as DPoP-bound", async () => {
    const proofs: Decoded[] = [];
    const server = await startServer(async (request, response) => {
      await readBody(request);
      const proof = decode(String(request.headers.dpop));
      proofs.push(proof);
      if (proof.claims.nonce !== "as-nonce") return json(response, 400, { error: "use_dpop_nonce" }, { "dpop-nonce": "as-nonce" });
      return json(response, 200, { access_token: "bound", token_type: "DPoP", expires_in: 60 });
    });
    open.push(server);
    const endpoint = new URL(`${server.origin}/token`);
    const http = { fetch: (input: string | URL, init?: RequestInit) => fetch(input, init), timeoutMs: 5000, maxBytes: 65536, allowInsecureHttp: true };
    const base = { http, endpoint, params: { grant_type: "client_credentials" }, client: { clientId: "c", clientSecret: "s" }, method: "client_secret_post", issuer: server.origin, keys: new Map(), now } as const;
    const tokens = await requestToken({ ...base, dpop: createDpopProver({}, Date.now) });
    expect(tokens).toMatchObject({ accessToken: "bound", tokenType: "DPoP" });
    expect(proofs.map((p) => [p.claims.htm, p.claims.htu, p.claims.nonce])).toEqual([["POST", endpoint.href, undefined], ["POST", endpoint.href, "as-nonce"]]);
    await expect(requestToken({ ...base, http: { ...http, fetch: async () => Response.json({ access_token: "t", token_type: "DPoP" }) } })).rejects.toMatchObject({
      code: OAuthFaultCode.InvalidTokenResponse,
      message: expect.stringMatching(/enable the provider's dpop option/),
    });
  });
});

describe("DPoP with a provider", () => {
  it("refuses an algorithm the authorization server does not list, and keeps a token the server did not bind as Bearer", async () => {
    const auth = await startAuthServer({ grantTypes: ["client_credentials"], preRegistered: [{ clientId: "svc", clientSecret: "pw" }], extraMetadata: { dpop_signing_alg_values_supported: ["ES256"] } });
    const server = await startResourceServer({ auth });
    open.push(auth, server);
    const options = { serverUrl: server.url, clientId: "svc", clientSecret: "pw", dangerouslyAllowInsecureHttp: true };
    await expect(call(createClientCredentialsAuth({ ...options, dpop: { algorithm: "ES384" } }), server.url)).rejects.toMatchObject({
      code: OAuthFaultCode.AuthMethodUnsupported,
      message: expect.stringMatching(/accepts DPoP proofs signed with ES256, not ES384/),
    });
    const provider = createClientCredentialsAuth({ ...options, dpop: true });
    expect((await call(provider, server.url)).status).toBe(200);
    expect((await provider.tokens())?.tokenType).toBe("Bearer");
  });
});

describe("DPoP on MCP requests (RFC 9449 §7, §9)", () => {
  const held: StoredTokens = { accessToken: "bound", tokenType: "DPoP", issuer: "https://as", tokenEndpoint: "https://as/token", resource: "https://mcp/mcp", clientId: "c", authMethod: "none", dpopJkt: "x" };

  it("presents the held DPoP token with the DPoP scheme and a fresh proof, and retries once on use_dpop_nonce", async () => {
    const seen: Headers[] = [];
    let answers = [401, 200];
    const next = async (_input: string | URL, init?: RequestInit): Promise<Response> => {
      seen.push(new Headers(init?.headers));
      const status = answers.shift() ?? 200;
      const headers: Record<string, string> = status === 401 ? { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": `rs-${seen.length}` } : {};
      return new Response("{}", { status, headers });
    };
    const wrapped = createDpopFetch(createDpopProver({}, Date.now), async () => held, next);
    const ok = await wrapped("https://mcp.example/mcp", { method: "POST", headers: { authorization: "Bearer bound" }, body: "{}" });
    expect(ok.status).toBe(200);
    expect(seen.map((h) => h.get("authorization"))).toEqual(["DPoP bound", "DPoP bound"]);
    const [first, second] = seen.map((h) => decode(h.get("dpop") ?? ""));
    expect(first?.claims.nonce).toBeUndefined();
    expect(second?.claims.nonce).toBe("rs-1");
    expect(second?.claims.jti).not.toBe(first?.claims.jti);
    answers = [401, 401];
    expect((await wrapped("https://mcp.example/mcp", { method: "POST", headers: { authorization: "Bearer bound" }, body: "{}" })).status).toBe(401);
    expect(seen).toHaveLength(4);
  });

  it("leaves requests without the held DPoP token alone", async () => {
    const seen: Headers[] = [];
    const next = async (_input: string | URL, init?: RequestInit): Promise<Response> => (seen.push(new Headers(init?.headers)), new Response("{}"));
    const prover = createDpopProver({}, Date.now);
    await createDpopFetch(prover, async () => held, next)("https://mcp.example/mcp", { method: "POST" });
    await createDpopFetch(prover, async () => held, next)("https://mcp.example/mcp", { method: "POST", headers: { authorization: "Bearer other" } });
    await createDpopFetch(prover, async () => ({ ...held, tokenType: "Bearer" }), next)("https://mcp.example/mcp", { method: "POST", headers: { authorization: "Bearer bound" } });
    expect(seen.map((h) => [h.get("authorization"), h.has("dpop")])).toEqual([[null, false], ["Bearer other", false], ["Bearer bound", false]]);
  });

  it("does not use a stored DPoP token bound to another key, and hands the transport the plain fetch without DPoP", async () => {
    const store = createMemoryTokenStore();
    const options = { serverUrl: "https://mcp.example/mcp", clientId: "c", clientSecret: "s", store };
    await store.save("https://mcp.example/mcp", { tokens: held });
    expect(await createClientCredentialsAuth({ ...options, dpop: true }).token()).toBeUndefined();
    const next = async (): Promise<Response> => new Response("{}");
    expect(createClientCredentialsAuth(options).wrapFetch(next)).toBe(next);
  });
});
