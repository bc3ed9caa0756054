/**
 * DPoP, proof of possession for OAuth tokens (RFC 9449, the MCP DPoP extension SEP-1932): one
 * key pair per provider, a fresh signed proof for every token request and every request to the
 * MCP server (`typ: dpop+jwt`, the public `jwk`, `jti`, `htm`, `htu`, `iat`, `ath` with a token,
 * `nonce` when the server asked for one), and the server-provided nonces (§8, §9) per origin.
 * WebCrypto only. The private key is generated non-extractable unless the owner supplies one.
 */
import { OAuthError, OAuthFaultCode } from "./errors";
import { isJwsAlgorithm, type JwsAlgorithm, keyGenParams, signJws } from "./jwt";
import { base64Url, randomToken } from "./pkce";

/** The `dpop` option of the providers. */
export interface DpopOptions {
  /** The proof algorithm (default `ES256`); it must be one the authorization server lists in `dpop_signing_alg_values_supported`. */
  readonly algorithm?: JwsAlgorithm;
  /**
   * The key pair to prove possession with (its public key must be extractable). Default: one
   * generated per provider, in memory: tokens bound to it die with the process, so a persistent
   * store with DPoP needs a key pair that persists too (stored tokens bound to another key are ignored).
   */
  readonly keyPair?: CryptoKeyPair;
}

/** What one proof covers. */
export interface ProofRequest {
  /** The HTTP method of the request (`htm`). */
  readonly method: string;
  /** The request URL; its query and fragment are left out of `htu` (§4.2). */
  readonly url: URL;
  /** The access token the request presents (it becomes `ath`). */
  readonly accessToken?: string;
}

/** One provider's DPoP key and nonces. */
export interface DpopProver {
  readonly algorithm: JwsAlgorithm;
  /** The RFC 7638 SHA-256 thumbprint of the public key (the `cnf.jkt` of bound tokens). */
  thumbprint(): Promise<string>;
  /** A fresh proof for one request, with the nonce last received from its origin. */
  proof(request: ProofRequest): Promise<string>;
  /** Keeps the `DPoP-Nonce` a response carried, for the next proofs to its origin. */
  remember(url: URL, response: { readonly headers: Headers }): void;
}

/** The members of a public JWK that RFC 7638 hashes, in its order, per key type. */
const THUMBPRINT_MEMBERS: { readonly [kty: string]: readonly string[] } = { EC: ["crv", "kty", "x", "y"], OKP: ["crv", "kty", "x"], RSA: ["e", "kty", "n"] };

/** The RFC 7638 thumbprint of a public JWK (base64url of SHA-256 over its required members). */
export async function jwkThumbprint(jwk: JsonWebKey): Promise<string> {
  const members = THUMBPRINT_MEMBERS[jwk.kty ?? ""];
  if (members === undefined) throw new OAuthError(OAuthFaultCode.InvalidKey, `A DPoP key of type ${String(jwk.kty)} has no RFC 7638 thumbprint; use an EC, OKP or RSA key.`);
  const canonical = `{${members.map((name) => `${JSON.stringify(name)}:${JSON.stringify((jwk as Record<string, unknown>)[name])}`).join(",")}}`;
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical))));
}

async function sha256Url(text: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

async function publicJwkOf(key: CryptoKey): Promise<JsonWebKey> {
  let jwk: JsonWebKey;
  try {
    jwk = await crypto.subtle.exportKey("jwk", key);
  } catch (cause) {
    throw new OAuthError(OAuthFaultCode.InvalidKey, "The DPoP public key cannot be exported as a JWK; generate the key pair with extractable: true (only the public key is ever exported).", { cause });
  }
  const members = THUMBPRINT_MEMBERS[jwk.kty ?? ""] ?? [];
  return Object.fromEntries(members.map((name) => [name, (jwk as Record<string, unknown>)[name]])) as JsonWebKey;
}

/** Creates the DPoP prover of one provider; the key pair is generated on first use unless given. */
export function createDpopProver(options: DpopOptions, now: () => number): DpopProver {
  const algorithm = options.algorithm ?? "ES256";
  if (!isJwsAlgorithm(algorithm)) throw new TypeError(`dpop.algorithm must be a JWS algorithm (ES256, ES384, ES512, RS256, PS256, EdDSA, ...), got ${JSON.stringify(algorithm)}.`);
  let ready: Promise<{ privateKey: CryptoKey; jwk: JsonWebKey; jkt: string }> | undefined;
  const key = (): Promise<{ privateKey: CryptoKey; jwk: JsonWebKey; jkt: string }> =>
    (ready ??= (async () => {
      const pair = options.keyPair ?? ((await crypto.subtle.generateKey(keyGenParams(algorithm), false, ["sign", "verify"])) as CryptoKeyPair);
      const jwk = await publicJwkOf(pair.publicKey);
      return { privateKey: pair.privateKey, jwk, jkt: await jwkThumbprint(jwk) };
    })());
  const nonces = new Map<string, string>();
  return {
    algorithm,
    thumbprint: async () => (await key()).jkt,
    async proof(request) {
      const { privateKey, jwk } = await key();
      const nonce = nonces.get(request.url.origin);
      const claims = {
        jti: randomToken(16),
        htm: request.method.toUpperCase(),
        htu: `${request.url.origin}${request.url.pathname}`,
        iat: Math.floor(now() / 1000),
        ...(request.accessToken === undefined ? {} : { ath: await sha256Url(request.accessToken) }),
        ...(nonce === undefined ? {} : { nonce }),
      };
      return signJws({ typ: "dpop+jwt", alg: algorithm, jwk }, claims, algorithm, privateKey, "DPoP proof");
    },
    remember(url, response) {
      const nonce = response.headers.get("dpop-nonce");
      // RFC 9449 §8.1: a nonce is an opaque printable-ASCII string.
      if (nonce !== null && /^[\x21-\x7e]+$/.test(nonce) && nonce.length <= 1024) nonces.set(url.origin, nonce);
    },
  };
}

/** True when a `WWW-Authenticate` header or a token error body asks for a DPoP nonce (`use_dpop_nonce`). */
export function asksForNonce(value: string | null | undefined): boolean {
  return value !== null && value !== undefined && /(?:^|[\s,"])use_dpop_nonce(?:$|[\s,"])/.test(value);
}
