import { describe, expect, it } from "vitest";
import { OAuthFaultCode } from "./errors";
import { importSigningKey, isJwsAlgorithm, type JwsAlgorithm, signClientAssertion } from "./jwt";

const toPem = (der: ArrayBuffer): string =>
  `-----BEGIN PRIVATE KEY-----\n${Buffer.from(der).toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END PRIVATE KEY-----\n`;

const cases: { alg: JwsAlgorithm; gen: RsaHashedKeyGenParams | EcKeyGenParams | AlgorithmIdentifier; verify: AlgorithmIdentifier | EcdsaParams | RsaPssParams }[] = [
  { alg: "ES256", gen: { name: "ECDSA", namedCurve: "P-256" }, verify: { name: "ECDSA", hash: "SHA-256" } },
  { alg: "ES384", gen: { name: "ECDSA", namedCurve: "P-384" }, verify: { name: "ECDSA", hash: "SHA-384" } },
  { alg: "RS256", gen: { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, verify: { name: "RSASSA-PKCS1-v1_5" } },
  { alg: "PS256", gen: { name: "RSA-PSS", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, verify: { name: "RSA-PSS", saltLength: 32 } },
  { alg: "EdDSA", gen: { name: "Ed25519" }, verify: { name: "Ed25519" } },
];

describe("client assertions", () => {
  it.each(cases)("signs $alg from PKCS#8 PEM, and the signature verifies", async ({ alg, gen, verify }) => {
    const pair = (await crypto.subtle.generateKey(gen, true, ["sign", "verify"])) as CryptoKeyPair;
    const key = await importSigningKey(toPem(await crypto.subtle.exportKey("pkcs8", pair.privateKey)), alg);
    const now = Date.UTC(2026, 0, 1);
    const jwt = await signClientAssertion({ clientId: "svc", audience: "https://as.example", algorithm: alg, key, keyId: "k1", now });
    const [header, payload, signature] = jwt.split(".") as [string, string, string];
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ alg, typ: "JWT", kid: "k1" });
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: "svc", sub: "svc", aud: "https://as.example", iat: now / 1000, exp: now / 1000 + 300 });
    expect(claims.jti).toEqual(expect.any(String));
    const ok = await crypto.subtle.verify(verify, pair.publicKey, Buffer.from(signature, "base64url"), new TextEncoder().encode(`${header}.${payload}`));
    expect(ok).toBe(true);
  });

  it("accepts a private JWK and a CryptoKey", async () => {
    const pair = await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
    const jwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    await expect(importSigningKey(jwk, "ES256")).resolves.toBeDefined();
    await expect(importSigningKey(pair.privateKey, "ES256")).resolves.toBe(pair.privateKey);
    await expect(importSigningKey(pair.publicKey, "ES256")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidKey });
  });

  it("refuses keys it cannot use, saying how to fix them", async () => {
    await expect(importSigningKey("not pem", "ES256")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidKey });
    await expect(importSigningKey("-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----", "ES256")).rejects.toThrow(/openssl pkcs8/);
    const rsa = await crypto.subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign"]);
    await expect(importSigningKey(toPem(await crypto.subtle.exportKey("pkcs8", rsa.privateKey)), "ES256")).rejects.toMatchObject({ code: OAuthFaultCode.InvalidKey });
  });

  it("knows its algorithms", () => {
    expect(isJwsAlgorithm("ES256")).toBe(true);
    expect(isJwsAlgorithm("none")).toBe(false);
    expect(isJwsAlgorithm("toString")).toBe(false);
  });
});
