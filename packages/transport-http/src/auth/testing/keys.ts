/**
 * Test fixture (not part of the package surface): key pairs, a JWKS and a token minter for the
 * verifier tests, and a tiny JWKS endpoint on 127.0.0.1 that counts its fetches.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import type { CryptoKey, JSONWebKeySet, JWK, JWTPayload } from "jose";

export const ISSUER = "https://auth.example.com";
export const AUDIENCE = "https://mcp.example.com/mcp";

/** A signing key with its public JWK. */
export interface TestKey {
  readonly kid: string;
  readonly alg: string;
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

/** Generates a key pair (RS256 by default) and its public JWK. */
export async function makeKey(kid: string, alg = "RS256"): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: "sig" };
  return { kid, alg, privateKey, jwk };
}

/** A JWKS of the given keys' public halves. */
export function jwksOf(...keys: TestKey[]): JSONWebKeySet {
  return { keys: keys.map((key) => key.jwk) };
}

/** Mints a token: issuer, audience, subject and a one-hour expiry unless overridden (`undefined` removes a claim). */
export async function mint(key: TestKey, claims: JWTPayload = {}, header: { kid?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const payload: JWTPayload = { iss: ISSUER, aud: AUDIENCE, sub: "alice", iat: now, exp: now + 3600, ...claims };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload).setProtectedHeader({ alg: key.alg, kid: header.kid ?? key.kid, typ: "JWT" }).sign(key.privateKey);
}

/** A JWKS endpoint whose key set can be swapped, counting fetches. */
export interface JwksServer {
  readonly url: string;
  readonly fetches: number;
  set(jwks: JSONWebKeySet): void;
  close(): Promise<void>;
}

/** Serves a JWKS on 127.0.0.1, port 0. */
export async function serveJwks(initial: JSONWebKeySet): Promise<JwksServer> {
  let jwks = initial;
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches += 1;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    get fetches() {
      return fetches;
    },
    set(next) {
      jwks = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
