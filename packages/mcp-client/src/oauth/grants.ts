/**
 * The two grants: authorization code with PKCE S256 (OAuth 2.1 §4.1, MCP "Authorization
 * Flow Steps") and client credentials (OAuth 2.1 §4.2, the MCP client-credentials extension),
 * both with the RFC 8707 `resource` parameter. Discovery and identity come in; tokens go out.
 */
import { checkSigningAlgorithm, chooseAuthMethod, type ClientIdentity, type KeyCache, type TokenEndpointAuthMethod } from "./client-auth";
import type { Discovery } from "./discovery";
import { splitScope } from "./challenge";
import { OAuthError, OAuthFaultCode, raceAbort } from "./errors";
import type { HttpSettings } from "./http";
import { type AuthorizationServerMetadata, listAllows } from "./metadata";
import { createPkce, randomToken } from "./pkce";
import type { RedirectHandler } from "./redirect";
import { type IdentityRequest, resolveIdentity } from "./registration";
import { requestToken, type TokenSet } from "./token-endpoint";
import type { StoredClient } from "./token-store";
import { parseUrl } from "./urls";

/** What a grant produced. */
export interface GrantResult {
  readonly tokens: TokenSet;
  readonly clientId: string;
  readonly method: TokenEndpointAuthMethod;
}

/** Shared inputs of both grants. */
interface GrantBase {
  readonly http: HttpSettings;
  readonly discovery: Discovery;
  readonly scope: string | undefined;
  readonly keys: KeyCache;
  readonly now: () => number;
  readonly signal?: AbortSignal;
}

/** Inputs of an authorization code flow. */
export interface AuthorizationCodeRequest extends GrantBase, Omit<IdentityRequest, "redirectUri" | "now" | "discovery" | "http" | "signal"> {
  readonly redirect: RedirectHandler;
  /** How long the user has to complete the authorization at the authorization endpoint. */
  readonly authorizationTimeoutMs: number;
  /** Called as soon as a dynamic registration succeeds, so it is kept even if the flow fails later. */
  readonly onRegistration: (client: StoredClient) => Promise<void>;
}

/** Runs the authorization code flow with PKCE S256 and returns the tokens. */
export async function runAuthorizationCode(request: AuthorizationCodeRequest): Promise<GrantResult> {
  const { metadata } = request.discovery;
  const endpoint = parseUrl(metadata.authorization_endpoint, `The authorization_endpoint of ${request.discovery.issuer}`);
  assertCodeFlowSupported(metadata, request.discovery.issuer);
  const session = await request.redirect.begin(request.signal);
  try {
    const { identity, registration } = await resolveIdentity({ ...request, redirectUri: session.redirectUri, now: request.now() });
    if (registration !== undefined) await request.onRegistration(registration);
    const method = chooseAuthMethod(identity, metadata.token_endpoint_auth_methods_supported);
    checkSigningAlgorithm(identity, metadata.token_endpoint_auth_signing_alg_values_supported);
    const pkce = await createPkce();
    const state = randomToken(32);
    const params: Record<string, string | undefined> = {
      response_type: "code",
      client_id: identity.clientId,
      redirect_uri: session.redirectUri,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
      state,
      resource: request.discovery.resource,
      scope: request.scope,
      // OpenID Connect Core §11: without prompt=consent an OpenID provider drops offline_access (no refresh token).
      prompt: splitScope(request.scope ?? "").includes("offline_access") ? "consent" : undefined,
    };
    for (const [name, value] of Object.entries(params)) if (value !== undefined) endpoint.searchParams.set(name, value);
    const callback = await withUserDeadline(request.authorizationTimeoutMs, request.signal, (signal) => session.complete(endpoint, signal));
    const code = readCallback(callback, session.redirectUri, state, metadata);
    const tokens = await requestToken({
      ...request,
      endpoint: parseUrl(metadata.token_endpoint, "The token_endpoint"),
      params: { grant_type: "authorization_code", code, redirect_uri: session.redirectUri, code_verifier: pkce.verifier, resource: request.discovery.resource },
      client: identity,
      method,
      issuer: metadata.issuer,
    });
    return { tokens: withRequestedScope(tokens, request.scope), clientId: identity.clientId, method };
  } finally {
    await session.close();
  }
}

/**
 * Runs the user's part of the flow with its own deadline (`authorizationTimeoutMs`): it fails
 * with `TIMEOUT` when the user is too slow, even when the redirect handler ignores its signal.
 */
async function withUserDeadline<T>(timeoutMs: number, outer: AbortSignal | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new OAuthError(OAuthFaultCode.Timeout,
    `Nobody completed the authorization within ${timeoutMs} ms (authorizationTimeoutMs); authorize again, or raise the timeout.`)), timeoutMs);
  const signal = outer === undefined ? deadline.signal : AbortSignal.any([outer, deadline.signal]);
  try {
    return await raceAbort(run(signal), signal);
  } finally {
    clearTimeout(timer);
  }
}

function assertCodeFlowSupported(metadata: AuthorizationServerMetadata, issuer: string): void {
  if (metadata.code_challenge_methods_supported?.includes("S256") !== true) {
    throw new OAuthError(
      OAuthFaultCode.PkceUnsupported,
      `The authorization server ${issuer} does not advertise PKCE S256 (code_challenge_methods_supported); MCP clients must refuse to proceed.`,
      { detail: { advertised: metadata.code_challenge_methods_supported } },
    );
  }
  if (!listAllows(metadata.response_types_supported, "code") || !listAllows(metadata.grant_types_supported, "authorization_code")) {
    throw new OAuthError(OAuthFaultCode.GrantUnsupported, `The authorization server ${issuer} does not support the authorization code grant.`);
  }
}

/** Validates the redirect back (state, RFC 9207 `iss`, error, code) and returns the code. */
export function readCallback(callback: URL, redirectUri: string, state: string, metadata: AuthorizationServerMetadata): string {
  const expected = new URL(redirectUri);
  if (callback.origin !== expected.origin || callback.pathname !== expected.pathname) {
    throw new OAuthError(OAuthFaultCode.InvalidCallback, `The authorization response came back to ${callback.origin}${callback.pathname}, not to ${redirectUri}.`);
  }
  const params = callback.searchParams;
  if (params.get("state") !== state) {
    throw new OAuthError(OAuthFaultCode.StateMismatch, "The authorization response's state does not match the request's; it was discarded (possible CSRF).");
  }
  const iss = params.get("iss");
  // RFC 9207 §2.4: a simple string comparison, with no normalisation (no trailing-slash, case or port folding).
  if ((iss !== null && iss !== metadata.issuer) || (iss === null && metadata.authorization_response_iss_parameter_supported === true)) {
    throw new OAuthError(OAuthFaultCode.IssuerMismatch, `The authorization response names issuer ${JSON.stringify(iss)}, expected "${metadata.issuer}" (RFC 9207).`, {
      detail: { expected: metadata.issuer, actual: iss },
    });
  }
  const error = params.get("error");
  if (error !== null) {
    const description = params.get("error_description");
    throw new OAuthError(OAuthFaultCode.AuthorizationDenied, `The authorization server answered ${error}${description === null ? "" : `: ${description.slice(0, 300)}`}.`, {
      detail: { error, errorDescription: description },
    });
  }
  const code = params.get("code");
  if (code === null || code === "") throw new OAuthError(OAuthFaultCode.InvalidCallback, "The authorization response carries no code.");
  return code;
}

/** Inputs of a client credentials grant. */
export interface ClientCredentialsRequest extends GrantBase {
  readonly client: ClientIdentity;
}

/** Runs the client credentials grant (a secret or a private-key JWT authenticates the client). */
export async function runClientCredentials(request: ClientCredentialsRequest): Promise<GrantResult> {
  const { metadata, issuer } = request.discovery;
  if (!listAllows(metadata.grant_types_supported, "client_credentials")) {
    throw new OAuthError(OAuthFaultCode.GrantUnsupported, `The authorization server ${issuer} does not list the client_credentials grant.`, {
      detail: { advertised: metadata.grant_types_supported },
    });
  }
  const method = chooseAuthMethod(request.client, metadata.token_endpoint_auth_methods_supported);
  checkSigningAlgorithm(request.client, metadata.token_endpoint_auth_signing_alg_values_supported);
  const tokens = await requestToken({
    ...request,
    endpoint: parseUrl(metadata.token_endpoint, "The token_endpoint"),
    params: { grant_type: "client_credentials", scope: request.scope, resource: request.discovery.resource },
    method,
    issuer: metadata.issuer,
  });
  return { tokens: withRequestedScope(tokens, request.scope), clientId: request.client.clientId, method };
}

function withRequestedScope(tokens: TokenSet, scope: string | undefined): TokenSet {
  return tokens.scope !== undefined || scope === undefined ? tokens : { ...tokens, scope };
}
