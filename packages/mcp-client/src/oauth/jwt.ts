/**
 * Client assertions for `private_key_jwt` (RFC 7523 §2.2 and §3, OpenID Connect Core §9),
 * signed with WebCrypto: no JOSE dependency. Keys come as PKCS#8 PEM, a private JWK or a
 * `CryptoKey`.
 */
import { OAuthError, OAuthFaultCode } from "./errors";
import { base64Url, randomToken } from "./pkce";

/** The JWS algorithms a client assertion can be signed with. */
export type JwsAlgorithm = "ES256" | "ES384" | "ES512" | "RS256" | "RS384" | "RS512" | "PS256" | "PS384" | "PS512" | "EdDSA";

/** A private key: PKCS#8 PEM text (`-----BEGIN PRIVATE KEY-----`), a private JWK, or a WebCrypto key. */
export type PrivateKeyInput = string | JsonWebKey | CryptoKey;

interface AlgorithmParams {
  readonly importParams: AlgorithmIdentifier | RsaHashedImportParams | EcKeyImportParams;
  readonly signParams: AlgorithmIdentifier | EcdsaParams | RsaPssParams;
}

const ALGORITHMS: Readonly<Record<JwsAlgorithm, AlgorithmParams>> = {
  ES256: { importParams: { name: "ECDSA", namedCurve: "P-256" }, signParams: { name: "ECDSA", hash: "SHA-256" } },
  ES384: { importParams: { name: "ECDSA", namedCurve: "P-384" }, signParams: { name: "ECDSA", hash: "SHA-384" } },
  ES512: { importParams: { name: "ECDSA", namedCurve: "P-521" }, signParams: { name: "ECDSA", hash: "SHA-512" } },
  RS256: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  RS384: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-384" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  RS512: { importParams: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-512" }, signParams: { name: "RSASSA-PKCS1-v1_5" } },
  PS256: { importParams: { name: "RSA-PSS", hash: "SHA-256" }, signParams: { name: "RSA-PSS", saltLength: 32 } },
  PS384: { importParams: { name: "RSA-PSS", hash: "SHA-384" }, signParams: { name: "RSA-PSS", saltLength: 48 } },
  PS512: { importParams: { name: "RSA-PSS", hash: "SHA-512" }, signParams: { name: "RSA-PSS", saltLength: 64 } },
  EdDSA: { importParams: { name: "Ed25519" }, signParams: { name: "Ed25519" } },
};

/** True when `value` names a supported JWS algorithm. */
export function isJwsAlgorithm(value: unknown): value is JwsAlgorithm {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(ALGORITHMS, value);
}

/** Imports `key` for signing with `algorithm`; throws `INVALID_KEY` with a fix when it cannot. */
export async function importSigningKey(key: PrivateKeyInput, algorithm: JwsAlgorithm): Promise<CryptoKey> {
  const params = ALGORITHMS[algorithm].importParams;
  try {
    if (typeof key === "string") return await crypto.subtle.importKey("pkcs8", pemToDer(key), params, false, ["sign"]);
    if (isCryptoKey(key)) {
      if (key.type !== "private") throw new Error("the CryptoKey is not a private key");
      return key;
    }
    return await crypto.subtle.importKey("jwk", key, params, false, ["sign"]);
  } catch (cause) {
    if (cause instanceof OAuthError) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new OAuthError(OAuthFaultCode.InvalidKey, `The private key cannot be used with ${algorithm}: ${reason}. Check the key type matches the algorithm.`, {
      cause,
    });
  }
}

function isCryptoKey(key: unknown): key is CryptoKey {
  return typeof CryptoKey !== "undefined" && key instanceof CryptoKey;
}

function pemToDer(pem: string): ArrayBuffer {
  const match = /-----BEGIN ([A-Z ]+)-----([\s\S]*?)-----END \1-----/.exec(pem);
  if (match === null) throw new OAuthError(OAuthFaultCode.InvalidKey, "The private key is not PEM text (expected -----BEGIN PRIVATE KEY-----).");
  if (match[1] !== "PRIVATE KEY") {
    throw new OAuthError(
      OAuthFaultCode.InvalidKey,
      `The private key is a "${match[1] ?? ""}" PEM; convert it to unencrypted PKCS#8 with \`openssl pkcs8 -topk8 -nocrypt -in key.pem\`.`,
    );
  }
  const binary = atob((match[2] ?? "").replace(/\s+/g, ""));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

/** The claims and key of one client assertion. */
export interface ClientAssertionRequest {
  readonly clientId: string;
  /** The authorization server's issuer identifier (RFC 7523 §3: the `aud`). */
  readonly audience: string;
  readonly algorithm: JwsAlgorithm;
  readonly key: CryptoKey;
  readonly keyId?: string;
  /** Seconds until `exp` (default 300). */
  readonly lifetimeSeconds?: number;
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/** Signs a client assertion: `iss` = `sub` = client id, `aud`, `iat`, `exp`, a random `jti`. */
export async function signClientAssertion(request: ClientAssertionRequest): Promise<string> {
  const iat = Math.floor(request.now / 1000);
  const header = { alg: request.algorithm, typ: "JWT", ...(request.keyId === undefined ? {} : { kid: request.keyId }) };
  const claims = {
    iss: request.clientId,
    sub: request.clientId,
    aud: request.audience,
    iat,
    exp: iat + (request.lifetimeSeconds ?? 300),
    jti: randomToken(16),
  };
  const encoder = new TextEncoder();
  const input = `${base64Url(encoder.encode(JSON.stringify(header)))}.${base64Url(encoder.encode(JSON.stringify(claims)))}`;
  try {
    const signature = await crypto.subtle.sign(ALGORITHMS[request.algorithm].signParams, request.key, encoder.encode(input));
    return `${input}.${base64Url(new Uint8Array(signature))}`;
  } catch (cause) {
    throw new OAuthError(OAuthFaultCode.InvalidKey, `Signing the client assertion with ${request.algorithm} failed; check the key matches the algorithm.`, {
      cause,
    });
  }
}
