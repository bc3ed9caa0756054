/**
 * Token requests (RFC 6749 §4.1.3, §4.4.2, §6) with the RFC 8707 `resource` parameter, and
 * the validation of their responses (§5.1, §5.2): only Bearer tokens are accepted.
 */
import { applyClientAuth, type ClientIdentity, type KeyCache, type TokenEndpointAuthMethod } from "./client-auth";
import { OAuthError, OAuthFaultCode } from "./errors";
import { type HttpResult, type HttpSettings, postForm } from "./http";

/** Tokens as the provider keeps them. */
export interface TokenSet {
  readonly accessToken: string;
  readonly tokenType: "Bearer";
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
}

/** Sends a token request and returns the validated tokens. */
export async function requestToken(request: TokenRequest): Promise<TokenSet> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params)) if (value !== undefined) form.set(name, value);
  const headers: Record<string, string> = {};
  await applyClientAuth(request.method, request.client, form, headers, { audience: request.issuer, now: request.now(), keys: request.keys });
  const result = await postForm(request.http, request.endpoint, form, headers, OAuthFaultCode.TokenRequestFailed, request.signal);
  if (!result.ok) throw tokenError(result, request);
  return parseTokenResponse(result.json, request.now(), request.params.scope);
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

/** Validates a successful token response; `now` anchors `expires_in`. */
export function parseTokenResponse(value: unknown, now: number, requestedScope?: string): TokenSet {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("The token response is not a JSON object.");
  }
  const body = value as Record<string, unknown>;
  if (typeof body.access_token !== "string" || body.access_token === "") throw invalid("The token response has no access_token.");
  if (typeof body.token_type !== "string" || body.token_type.toLowerCase() !== "bearer") {
    throw invalid(`The token response has token_type ${JSON.stringify(body.token_type)}; only Bearer tokens are supported.`);
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
    tokenType: "Bearer",
    ...(typeof body.refresh_token === "string" && body.refresh_token !== "" ? { refreshToken: body.refresh_token } : {}),
    ...(typeof expiresIn === "number" ? { expiresAt: now + expiresIn * 1000 } : {}),
    ...(scope === undefined || scope === "" ? {} : { scope }),
  };
}

function invalid(message: string): OAuthError {
  return new OAuthError(OAuthFaultCode.InvalidTokenResponse, message);
}
