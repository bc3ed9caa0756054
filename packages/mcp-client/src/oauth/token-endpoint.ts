/**
 * Token requests (RFC 6749 §4.1.3, §4.4.2, §6) with the RFC 8707 `resource` parameter, and
 * the validation of their responses (§5.1, §5.2): Bearer tokens, and DPoP-bound tokens when
 * the request carried a DPoP proof (RFC 9449 §5), retried once with the authorization
 * server's nonce when it answers `use_dpop_nonce` (§8).
 */
import { applyClientAuth, type ClientIdentity, type KeyCache, type TokenEndpointAuthMethod } from "./client-auth";
import { asksForNonce, type DpopProver } from "./dpop";
import { OAuthError, OAuthFaultCode } from "./errors";
import { type HttpResult, type HttpSettings, postForm } from "./http";

/** Tokens as the provider keeps them. */
export interface TokenSet {
  readonly accessToken: string;
  /** `DPoP` for a token bound to the provider's DPoP key (sent with the DPoP scheme and a proof), else `Bearer`. */
  readonly tokenType: "Bearer" | "DPoP";
  readonly refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch (absent: unknown). */
  readonly expiresAt?: number;
  /** The granted scope (the requested one when the server did not say, RFC 6749 §5.1). */
  readonly scope?: string;
}

/** One token request. */
export interface TokenRequest {
  readonly http: HttpSettings;
  readonly endpoint: URL;
  /** Grant parameters (`grant_type` and what it needs), without client authentication. */
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly client: ClientIdentity;
  readonly method: TokenEndpointAuthMethod;
  /** The issuer: the audience of a `private_key_jwt` assertion. */
  readonly issuer: string;
  readonly keys: KeyCache;
  readonly now: () => number;
  readonly signal?: AbortSignal;
  /** Prove possession of this key (RFC 9449 §5): the token comes back bound to it. */
  readonly dpop?: DpopProver;
}

async function postTokenRequest(request: TokenRequest): Promise<HttpResult> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params)) if (value !== undefined) form.set(name, value);
  const headers: Record<string, string> = {};
  await applyClientAuth(request.method, request.client, form, headers, { audience: request.issuer, now: request.now(), keys: request.keys });
  if (request.dpop !== undefined) headers.DPoP = await request.dpop.proof({ method: "POST", url: request.endpoint });
  const result = await postForm(request.http, request.endpoint, form, headers, OAuthFaultCode.TokenRequestFailed, request.signal);
  request.dpop?.remember(request.endpoint, result);
  return result;
}

/** Sends a token request (once more with the server's nonce after `use_dpop_nonce`) and returns the validated tokens. */
export async function requestToken(request: TokenRequest): Promise<TokenSet> {
  let result = await postTokenRequest(request);
  const error = (result.json as { error?: unknown } | undefined)?.error;
  if (request.dpop !== undefined && result.status === 400 && typeof error === "string" && asksForNonce(error) && result.headers.has("dpop-nonce")) {
    result = await postTokenRequest(request);
  }
  if (!result.ok) throw tokenError(result, request);
  return parseTokenResponse(result.json, request.now(), request.params.scope, request.dpop !== undefined);
}

function tokenError(result: HttpResult, request: TokenRequest): OAuthError {
  const body = (typeof result.json === "object" && result.json !== null ? result.json : {}) as Record<string, unknown>;
  const error = typeof body.error === "string" ? body.error : undefined;
  const description = typeof body.error_description === "string" ? body.error_description.slice(0, 500) : undefined;
  const grant = request.params.grant_type ?? "token";
  const what = error === undefined ? `HTTP ${result.status}` : `${error}${description === undefined ? "" : `: ${description}`}`;
  return new OAuthError(OAuthFaultCode.TokenRequestFailed, `The token endpoint ${request.endpoint.href} refused the ${grant} request (${what}).`, {
    detail: { status: result.status, error, errorDescription: description },
  });
}

/** Validates a successful token response; `now` anchors `expires_in`; `dpop` allows `token_type` DPoP (the request carried a proof). */
export function parseTokenResponse(value: unknown, now: number, requestedScope?: string, dpop = false): TokenSet {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("The token response is not a JSON object.");
  }
  const body = value as Record<string, unknown>;
  if (typeof body.access_token !== "string" || body.access_token === "") throw invalid("The token response has no access_token.");
  const type = typeof body.token_type === "string" ? body.token_type.toLowerCase() : undefined;
  if (type !== "bearer" && !(dpop && type === "dpop")) {
    const hint = type === "dpop" ? "; enable the provider's dpop option to use DPoP-bound tokens" : "";
    throw invalid(`The token response has token_type ${JSON.stringify(body.token_type)}; only Bearer${dpop ? " and DPoP" : ""} tokens are supported${hint}.`);
  }
  const expiresIn = typeof body.expires_in === "string" && /^\d+$/.test(body.expires_in) ? Number(body.expires_in) : body.expires_in;
  if (expiresIn !== undefined && (typeof expiresIn !== "number" || !Number.isFinite(expiresIn) || expiresIn < 0)) {
    throw invalid("The token response has an expires_in that is not a non-negative number.");
  }
  if (body.refresh_token !== undefined && typeof body.refresh_token !== "string") throw invalid("The token response has a refresh_token that is not a string.");
  if (body.scope !== undefined && typeof body.scope !== "string") throw invalid("The token response has a scope that is not a string.");
  const scope = typeof body.scope === "string" ? body.scope : requestedScope;
  return {
    accessToken: body.access_token,
    tokenType: type === "dpop" ? "DPoP" : "Bearer",
    ...(typeof body.refresh_token === "string" && body.refresh_token !== "" ? { refreshToken: body.refresh_token } : {}),
    ...(typeof expiresIn === "number" ? { expiresAt: now + expiresIn * 1000 } : {}),
    ...(scope === undefined || scope === "" ? {} : { scope }),
  };
}

function invalid(message: string): OAuthError {
  return new OAuthError(OAuthFaultCode.InvalidTokenResponse, message);
}
