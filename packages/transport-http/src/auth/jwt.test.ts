import { SignJWT } from "jose";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { bearerToken, createJwtVerifier } from "./jwt";
import type { JwtVerifierOptions } from "./jwt";
import { AUDIENCE, ISSUER, jwksOf, makeKey, mint, serveJwks } from "./testing/keys";
import type { JwksServer, TestKey } from "./testing/keys";

let key: TestKey;
let other: TestKey;
let ec: TestKey;

beforeAll(async () => {
  key = await makeKey("k1");
  other = await makeKey("k1"); // same kid, different key: a forged signature
  ec = await makeKey("e1", "ES256");
});

function verifier(options: Partial<JwtVerifierOptions> = {}) {
  return createJwtVerifier({ jwks: jwksOf(key, ec), issuer: ISSUER, audience: AUDIENCE, ...options });
}

async function refusal(token: string, options: Partial<JwtVerifierOptions> = {}): Promise<string | undefined> {
  const result = await verifier(options).verify(token);
  return result.ok ? undefined : result.code;
}

describe("createJwtVerifier", () => {
  it("accepts a valid token and builds the principal", async () => {
    const token = await mint(key, { scope: "tools.read tools.write", tenant: "t1" });
    const result = await verifier().verify(token);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.principal).toMatchObject({ subject: "alice", scopes: ["tools.read", "tools.write"], token, claims: { tenant: "t1", iss: ISSUER } });
    expect(typeof result.principal.expiresAt).toBe("number");
  });

  it("reads scopes from an scp array too, and accepts ES256", async () => {
    const result = await verifier().verify(await mint(ec, { scp: ["a", "b"] }));
    expect(result.ok && result.principal.scopes).toEqual(["a", "b"]);
  });

  it("refuses a bad signature", async () => {
    expect(await refusal(await mint(other))).toBe("JWT_BAD_SIGNATURE");
  });

  it("refuses a token whose signature was tampered with", async () => {
    const token = await mint(key);
    const [h, p] = token.split(".");
    const forged = `${h}.${p}.${"A".repeat(342)}`;
    expect(await refusal(forged)).toBe("JWT_BAD_SIGNATURE");
  });

  it("refuses the wrong issuer", async () => {
    expect(await refusal(await mint(key, { iss: "https://evil.example.com" }))).toBe("JWT_WRONG_ISSUER");
  });

  it("accepts an audience list that contains us, refuses one that does not", async () => {
    expect(await refusal(await mint(key, { aud: ["https://other.example.com", AUDIENCE] }))).toBeUndefined();
    expect(await refusal(await mint(key, { aud: ["https://other.example.com", "https://third.example.com"] }))).toBe("JWT_WRONG_AUDIENCE");
    expect(await refusal(await mint(key, { aud: "https://other.example.com" }))).toBe("JWT_WRONG_AUDIENCE");
    expect(await refusal(await mint(key, { aud: undefined }))).toBe("JWT_MISSING_CLAIM");
  });

  it("refuses an expired token beyond the leeway, accepts one within it", async () => {
    const token = await mint(key, { exp: 1_000_000, iat: 999_000 });
    expect(await refusal(token, { now: () => 1_000_000_000 + 20_000 })).toBeUndefined(); // 20 s late, 30 s leeway
    expect(await refusal(token, { now: () => 1_000_000_000 + 31_000 })).toBe("JWT_EXPIRED");
    expect(await refusal(token, { now: () => 1_000_000_000 + 20_000, leewaySeconds: 5 })).toBe("JWT_EXPIRED");
  });

  it("refuses a token not valid yet, and one that never expires", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(await mint(key, { nbf: now + 600 }))).toBe("JWT_NOT_YET_VALID");
    expect(await refusal(await mint(key, { exp: undefined }))).toBe("JWT_MISSING_CLAIM");
  });

  it("refuses a token issued in the future beyond the leeway (iat), accepts one within it", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await refusal(await mint(key, { iat: now + 600 }))).toBe("JWT_NOT_YET_VALID");
    expect(await refusal(await mint(key, { iat: now + 10 }))).toBeUndefined();
  });

  it("refuses a token without a subject", async () => {
    expect(await refusal(await mint(key, { sub: undefined }))).toBe("JWT_MISSING_CLAIM");
  });

  it("refuses symmetric and unsigned tokens (algorithm confusion)", async () => {
    const secret = new TextEncoder().encode("k".repeat(32));
    const hs = await new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: "alice", exp: Math.floor(Date.now() / 1000) + 60 }).setProtectedHeader({ alg: "HS256", kid: "k1" }).sign(secret);
    expect(await refusal(hs)).toBe("JWT_ALG_NOT_ALLOWED");
    const none = `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ iss: ISSUER, aud: AUDIENCE, sub: "alice" })).toString("base64url")}.`;
    expect(await refusal(none)).toMatch(/JWT_ALG_NOT_ALLOWED|JWT_MALFORMED/);
  });

  it("refuses a token whose kid is not in the key set, and garbage", async () => {
    expect(await refusal(await mint(key, {}, { kid: "unknown" }))).toBe("JWT_UNKNOWN_KEY");
    expect(await refusal("not.a.jwt")).toBe("JWT_MALFORMED");
    expect(await refusal("")).toBe("JWT_MALFORMED");
  });

  it("misuse throws a TypeError that says what to do", () => {
    expect(() => createJwtVerifier({ issuer: ISSUER, audience: AUDIENCE })).toThrow(/exactly one of jwks/);
    expect(() => createJwtVerifier({ jwks: jwksOf(key), issuer: [], audience: AUDIENCE })).toThrow(TypeError);
  });
});

describe("createJwtVerifier with a JWKS URL", () => {
  let jwks: JwksServer | undefined;
  afterEach(async () => {
    await jwks?.close();
    jwks = undefined;
  });

  it("fetches the key set once and caches it", async () => {
    jwks = await serveJwks(jwksOf(key));
    const v = createJwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE });
    for (let i = 0; i < 5; i += 1) expect((await v.verify(await mint(key))).ok).toBe(true);
    expect(jwks.fetches).toBe(1);
  });

  it("refetches when a token names a new kid (key rotation)", async () => {
    jwks = await serveJwks(jwksOf(key));
    const v = createJwtVerifier({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwksCooldownMs: 0 });
    expect((await v.verify(await mint(key))).ok).toBe(true);
    const rotated = await makeKey("k2");
    jwks.set(jwksOf(key, rotated));
    expect((await v.verify(await mint(rotated))).ok).toBe(true);
    expect(jwks.fetches).toBe(2);
  });

  it("rejects with JWKS_UNAVAILABLE when the key set cannot be fetched (not a token refusal)", async () => {
    jwks = await serveJwks(jwksOf(key));
    const url = jwks.url;
    await jwks.close();
    jwks = undefined;
    const v = createJwtVerifier({ jwksUrl: url, issuer: ISSUER, audience: AUDIENCE, jwksTimeoutMs: 2_000 });
    await expect(v.verify(await mint(key))).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
  });
});

describe("createJwtVerifier during a JWKS outage (negative cache with backoff)", () => {
  it("fetches once per backoff delay, not once per request, and recovers when the endpoint does", async () => {
    let clock = 1_000_000_000;
    let fetches = 0;
    let up = false;
    const fetch = async (): Promise<Response> => {
      fetches += 1;
      if (!up) throw new TypeError("fetch failed: connection refused");
      return new Response(JSON.stringify(jwksOf(key)), { headers: { "content-type": "application/json" } });
    };
    const v = createJwtVerifier({ jwksUrl: "https://auth.example.com/jwks", issuer: ISSUER, audience: AUDIENCE, fetch, now: () => clock, jwksRetryDelayMs: 1_000, jwksMaxRetryDelayMs: 4_000 });
    const token = await mint(key, { iat: undefined, exp: Math.floor(clock / 1000) + 3600 });
    for (let i = 0; i < 10; i += 1) await expect(v.verify(token)).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
    expect(fetches).toBe(1);
    clock += 1_000;
    await expect(v.verify(token)).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
    expect(fetches).toBe(2); // the delay doubles: the next attempt is 2 s later
    clock += 1_999;
    await expect(v.verify(token)).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
    expect(fetches).toBe(2);
    for (let step = 0; step < 4; step += 1) {
      clock += 4_000; // capped at jwksMaxRetryDelayMs
      await expect(v.verify(token)).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
    }
    expect(fetches).toBe(6);
    up = true;
    clock += 4_000;
    expect((await v.verify(token)).ok).toBe(true);
    expect((await v.verify(token)).ok).toBe(true);
    expect(fetches).toBe(7);
  });

  it("shares one fetch among concurrent requests, and an unknown kid cannot drive fetches past the cooldown", async () => {
    let fetches = 0;
    const fetch = async (): Promise<Response> => {
      fetches += 1;
      return new Response(JSON.stringify(jwksOf(key)));
    };
    const v = createJwtVerifier({ jwksUrl: "https://auth.example.com/jwks", issuer: ISSUER, audience: AUDIENCE, fetch });
    const results = await Promise.all(Array.from({ length: 5 }, async () => (await v.verify(await mint(key))).ok));
    expect(results).toEqual([true, true, true, true, true]);
    for (let i = 0; i < 5; i += 1) expect(await v.verify(await mint(key, {}, { kid: `random-${i}` }))).toMatchObject({ ok: false, code: "JWT_UNKNOWN_KEY" });
    expect(fetches).toBe(1);
  });

  it("treats a non-200 answer and a document that is no key set as an outage, not a token refusal", async () => {
    for (const response of [new Response("down", { status: 502 }), new Response(JSON.stringify({ keys: "nope" }))]) {
      const v = createJwtVerifier({ jwksUrl: "https://auth.example.com/jwks", issuer: ISSUER, audience: AUDIENCE, fetch: async () => response });
      await expect(v.verify(await mint(key))).rejects.toMatchObject({ code: "JWKS_UNAVAILABLE" });
    }
  });
});

describe("bearerToken and authenticate", () => {
  it("reads only well-formed Bearer credentials", () => {
    expect(bearerToken("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("Basic dXNlcjpwYXNz")).toBeUndefined();
    expect(bearerToken("Bearer ")).toBeUndefined();
    expect(bearerToken("Bearer a b")).toBeUndefined();
    expect(bearerToken(null)).toBeUndefined();
  });

  it("authenticate answers a principal or undefined", async () => {
    const v = verifier();
    const request = (authorization?: string) => ({ method: "POST", url: AUDIENCE, headers: { get: (name: string) => (name === "authorization" ? authorization ?? null : null) } });
    expect(await v.authenticate(request(`Bearer ${await mint(key)}`))).toMatchObject({ subject: "alice" });
    expect(await v.authenticate(request())).toBeUndefined();
    expect(await v.authenticate(request(`Bearer ${await mint(other)}`))).toBeUndefined();
  });
});
