/**
 * A bearer-JWT verifier for protected MCP servers (MCP 2025-11-25 basic/authorization, "Token
 * Audience Binding and Validation"; RFC 6750; RFC 9068): the signature is checked against a JWKS
 * (static, or fetched and cached by `jose`), `iss` must be ours, our audience must be PRESENT IN
 * `aud` (a string or an array; present in, not equal to), and `exp`/`nbf` are checked with a small
 * leeway. Only asymmetric algorithms are accepted by default: never a shared secret.
 */
import { createLocalJWKSet, jwtVerify } from "jose";
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from "jose";
import type { Logger, Principal } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "../server/errors";
import type { HttpRequestLike } from "../server/io";
import { createRemoteKeySet } from "./jwks";
import { classifyJoseError, JwtFaultCode } from "./jwt-errors";

export { JwtFaultCode, JwtFailure } from "./jwt-errors";

/** The asymmetric JWS algorithms accepted when `algorithms` is not given. */
export const DEFAULT_JWT_ALGORITHMS: readonly string[] = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA", "Ed25519"];

/** Options of `createJwtVerifier`. Exactly one of `jwks` and `jwksUrl`. */
export interface JwtVerifierOptions {
  /** A static key set. */
  readonly jwks?: JSONWebKeySet;
  /** Where to fetch the key set; it is cached, and refetched when a token names an unknown `kid`. */
  readonly jwksUrl?: string | URL;
  /** The accepted `iss` value(s). */
  readonly issuer: string | readonly string[];
  /** Our audience value(s); a token is accepted when its `aud` contains at least one of them. */
  readonly audience: string | readonly string[];
  /** Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds. Default 30. */
  readonly leewaySeconds?: number;
  /** Accepted JWS algorithms. Default: `DEFAULT_JWT_ALGORITHMS` (asymmetric only). */
  readonly algorithms?: readonly string[];
  /** Claims a token must carry. Default `["exp"]`: tokens that never expire are refused. */
  readonly requiredClaims?: readonly string[];
  /** How long a fetched key set is trusted, in ms. Default 600,000. */
  readonly jwksCacheMaxAgeMs?: number;
  /** Minimum time between two key set fetches, in ms. Default 30,000. */
  readonly jwksCooldownMs?: number;
  /** Timeout of one key set fetch, in ms. Default 5,000. */
  readonly jwksTimeoutMs?: number;
  /**
   * After a failed key set fetch, no request fetches again for this long (ms), doubling with each
   * failure up to `jwksMaxRetryDelayMs`; meanwhile `verify` rejects at once with `JWKS_UNAVAILABLE`
   * (a negative cache: an outage costs one fetch per delay, not one per request). Default 1,000.
   */
  readonly jwksRetryDelayMs?: number;
  /** Longest wait between two fetches during an outage, in ms. Default 60,000. */
  readonly jwksMaxRetryDelayMs?: number;
  /** A `fetch` for the key set (tests, proxies). */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** The clock, in ms since the epoch (tests). Default `Date.now`. */
  readonly now?: () => number;
  /** Receives why a token was refused (`warn`) and JWKS outages (`error`). */
  readonly logger?: Logger;
}

/** The outcome of verifying one token. */
export type JwtVerifyResult =
  | { readonly ok: true; readonly principal: Principal }
  | { readonly ok: false; readonly code: JwtFaultCode; readonly message: string };

/** A verifier; pass `verifier.authenticate` as the handler's `authenticate` option. */
export interface JwtVerifier {
  /** Verifies a raw JWT. Rejects (code `JWKS_UNAVAILABLE`) only when the key set cannot be fetched. */
  verify(token: string): Promise<JwtVerifyResult>;
  /** Reads `Authorization: Bearer <jwt>` and verifies it: the principal, or undefined (answer 401). */
  authenticate(request: HttpRequestLike): Promise<Principal | undefined>;
}

/** Reads the token of an `Authorization: Bearer` header (RFC 6750 section 2.1), or undefined. */
export function bearerToken(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
  return match?.[1];
}

function list(value: string | readonly string[], name: string): string[] {
  const values = typeof value === "string" ? [value] : [...value];
  if (values.length === 0 || values.some((v) => typeof v !== "string" || v === "")) throw new TypeError(`${name} must be a non-empty string or list of strings`);
  return values;
}

function duration(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new TypeError(`${name} must be a number of ms >= 0, got ${String(value)}`);
  return value;
}

function keySet(options: JwtVerifierOptions, now: () => number): JWTVerifyGetKey {
  if ((options.jwks === undefined) === (options.jwksUrl === undefined)) {
    throw new TypeError("createJwtVerifier needs exactly one of jwks (a static key set) or jwksUrl (fetched and cached)");
  }
  if (options.jwks) return createLocalJWKSet(options.jwks);
  return createRemoteKeySet({
    url: new URL(String(options.jwksUrl)),
    cacheMaxAgeMs: duration(options.jwksCacheMaxAgeMs, 600_000, "jwksCacheMaxAgeMs"),
    cooldownMs: duration(options.jwksCooldownMs, 30_000, "jwksCooldownMs"),
    timeoutMs: duration(options.jwksTimeoutMs, 5_000, "jwksTimeoutMs"),
    retryDelayMs: duration(options.jwksRetryDelayMs, 1_000, "jwksRetryDelayMs"),
    maxRetryDelayMs: duration(options.jwksMaxRetryDelayMs, 60_000, "jwksMaxRetryDelayMs"),
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    now,
    logger: options.logger,
  });
}

function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === "string") return raw.split(" ").filter((s) => s !== "");
  if (Array.isArray(raw)) return raw.filter((s): s is string => typeof s === "string");
  return [];
}

/** Creates a bearer-JWT verifier. */
export function createJwtVerifier(options: JwtVerifierOptions): JwtVerifier {
  const now = options.now ?? Date.now;
  const keys = keySet(options, now);
  const issuer = list(options.issuer, "issuer");
  const audience = list(options.audience, "audience");
  const algorithms = [...(options.algorithms ?? DEFAULT_JWT_ALGORITHMS)];
  const requiredClaims = [...(options.requiredClaims ?? ["exp"])];
  const leeway = options.leewaySeconds ?? 30;

  async function verify(token: string): Promise<JwtVerifyResult> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer, audience, algorithms, requiredClaims, clockTolerance: leeway, currentDate: new Date(now()) }));
    } catch (error) {
      const failure = classifyJoseError(error);
      if (failure) return { ok: false, ...failure };
      if (error instanceof HttpServerError && error.code === HttpFaultCode.JwksUnavailable) throw error;
      const message = "the JWKS could not be read; tokens cannot be verified right now";
      options.logger?.error(message, error);
      throw new HttpServerError(HttpFaultCode.JwksUnavailable, message, { cause: error });
    }
    // jose checks `iat` only against a maximum token age: a token issued in the future is refused here
    if (typeof payload.iat === "number" && payload.iat > now() / 1000 + leeway) {
      return { ok: false, code: JwtFaultCode.NotYetValid, message: `the token's iat (${payload.iat}) is in the future beyond the ${leeway} s leeway` };
    }
    const subject = typeof payload.sub === "string" ? payload.sub : typeof payload.client_id === "string" ? payload.client_id : undefined;
    if (subject === undefined || subject === "") {
      return { ok: false, code: JwtFaultCode.MissingClaim, message: "the token has no sub (or client_id) claim to identify its caller" };
    }
    const principal: Principal = {
      subject,
      scopes: scopesOf(payload),
      claims: payload,
      token,
      ...(typeof payload.exp === "number" ? { expiresAt: payload.exp } : {}),
    };
    return { ok: true, principal };
  }

  return {
    verify,
    async authenticate(request) {
      const token = bearerToken(request.headers.get("authorization"));
      if (token === undefined) return undefined;
      const result = await verify(token);
      if (result.ok) return result.principal;
      options.logger?.warn(`bearer token refused (${result.code}): ${result.message}`);
      return undefined;
    },
  };
}
