/**
 * The flows of the OAuth session engine (`session.ts`): refreshing a token, a full authorization
 * (discovery, scope selection, the strategy's grant), a step-up to more scope, and what is stored
 * of the tokens each gives.
 */
import { type BearerChallenge, splitScope } from "./challenge";
import { type Discovery, discover } from "./discovery";
import { OAuthError, OAuthFaultCode } from "./errors";
import { selectScope, unionScopes, withOfflineAccess } from "./scopes";
import type { Engine, SessionSettings } from "./session-types";
import { requestToken } from "./token-endpoint";
import type { StoredTokens } from "./token-store";
import { assertSecureUrl, parseUrl } from "./urls";

/** Refreshes `tokens` with their refresh token and stores the result; an `invalid_grant` forgets the refused tokens. */
export async function refresh({ settings, strategy, state }: Engine, tokens: StoredTokens, signal?: AbortSignal): Promise<void> {
  const endpoint = parseUrl(tokens.tokenEndpoint, "The stored token endpoint");
  assertSecureUrl(endpoint, "the token endpoint", settings.http.allowInsecureHttp);
  try {
    const fresh = await requestToken({
      http: settings.http,
      endpoint,
      params: { grant_type: "refresh_token", refresh_token: tokens.refreshToken, resource: tokens.resource },
      client: strategy.identityFor(tokens.clientId, tokens.issuer, state.value),
      method: tokens.authMethod,
      issuer: tokens.issuer,
      keys: settings.keys,
      now: settings.now,
      ...(signal === undefined ? {} : { signal }),
      ...(settings.dpop === undefined ? {} : { dpop: settings.dpop }),
    });
    const { expiresAt: _expired, dpopJkt: _bound, ...kept } = tokens;
    const next: StoredTokens = { ...kept, ...fresh, refreshToken: fresh.refreshToken ?? tokens.refreshToken, scope: fresh.scope ?? tokens.scope, issuedAt: settings.now(), ...(await boundTo(settings, fresh.tokenType)) };
    await state.save({ ...state.value, tokens: next });
  } catch (error) {
    const detail = error instanceof OAuthError ? (error.detail as { error?: string } | undefined) : undefined;
    if (detail?.error === "invalid_grant" && state.value?.tokens === tokens) await state.save({ ...state.value, tokens: undefined });
    throw error;
  }
}

/** Obtains tokens through the strategy (counted against the attempt window when `counted`) and stores them. */
async function grant({ settings, strategy, state }: Engine, discovery: Discovery, scope: string | undefined, signal: AbortSignal | undefined, counted: boolean): Promise<void> {
  if (counted) state.countAttempt();
  const algs = discovery.metadata.dpop_signing_alg_values_supported;
  if (settings.dpop !== undefined && algs !== undefined && !algs.includes(settings.dpop.algorithm)) {
    throw new OAuthError(OAuthFaultCode.AuthMethodUnsupported, `The authorization server ${discovery.issuer} accepts DPoP proofs signed with ${algs.join(", ") || "nothing"}, not ${settings.dpop.algorithm}; set dpop.algorithm to one of them.`, {
      detail: { advertised: algs },
    });
  }
  const result = await strategy.obtain(discovery, scope, state, signal);
  const previous = state.value?.tokens;
  // A grant without a refresh token (a step-up the server answered without one) keeps the one held.
  const kept = result.tokens.refreshToken === undefined && previous?.refreshToken !== undefined && previous.issuer === discovery.issuer && previous.clientId === result.clientId
    ? { refreshToken: previous.refreshToken } : {};
  const tokens: StoredTokens = {
    ...result.tokens,
    ...kept,
    issuer: discovery.issuer,
    tokenEndpoint: discovery.metadata.token_endpoint,
    resource: discovery.resource,
    clientId: result.clientId,
    authMethod: result.method,
    issuedAt: settings.now(),
    ...(discovery.metadata.revocation_endpoint === undefined ? {} : { revocationEndpoint: discovery.metadata.revocation_endpoint }),
    ...(await boundTo(settings, result.tokens.tokenType)),
  };
  await state.save({ ...state.value, tokens });
}

/** The `dpopJkt` to store beside a token of `type`. */
async function boundTo(settings: SessionSettings, type: StoredTokens["tokenType"]): Promise<{ dpopJkt?: string }> {
  return type === "DPoP" && settings.dpop !== undefined ? { dpopJkt: await settings.dpop.thumbprint() } : {};
}

/** False for a DPoP token bound to another key than the provider's (a stored token from another key pair). */
export async function usable(settings: SessionSettings, tokens: StoredTokens): Promise<boolean> {
  return tokens.tokenType !== "DPoP" || (settings.dpop !== undefined && tokens.dpopJkt === (await settings.dpop.thumbprint()));
}

/** Discovers the authorization server of the session's MCP server (the challenge's resource metadata first). */
export function discoverFor({ settings }: Engine, challenge: BearerChallenge | undefined, signal?: AbortSignal): Promise<Discovery> {
  return discover({
    http: settings.http,
    server: settings.server,
    ...(challenge?.resourceMetadata === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadata }),
    ...(settings.selectIssuer === undefined ? {} : { selectIssuer: settings.selectIssuer }),
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
    ...(signal === undefined ? {} : { signal }),
  });
}

/** A full authorization: discovery (unless `found`), scope selection, then the grant. */
export async function fullAuthorization(engine: Engine, challenge: BearerChallenge | undefined, signal: AbortSignal | undefined, counted: boolean, found?: Discovery): Promise<void> {
  const discovery = found ?? (await discoverFor(engine, challenge, signal));
  const scope = selectScope({
    ...(challenge?.scope === undefined ? {} : { challenge: challenge.scope }),
    ...(engine.settings.scope === undefined ? {} : { configured: engine.settings.scope }),
    ...(discovery.resourceMetadata?.scopes_supported === undefined ? {} : { resourceScopes: discovery.resourceMetadata.scopes_supported }),
    ...(discovery.metadata.scopes_supported === undefined ? {} : { serverScopes: discovery.metadata.scopes_supported }),
    offlineAccess: engine.strategy.offlineAccess,
  });
  await grant(engine, discovery, scope, signal, counted);
}

/** A step-up after a 403 `insufficient_scope`: the union of the held and the asked scopes. */
export async function stepUp(engine: Engine, challenge: BearerChallenge, signal?: AbortSignal): Promise<void> {
  if (challenge.scope === undefined) return fullAuthorization(engine, challenge, signal, true);
  const discovery = await discoverFor(engine, challenge, signal);
  const union = splitScope(unionScopes(engine.state.value?.tokens?.scope, challenge.scope));
  const scope = withOfflineAccess(union, { offlineAccess: engine.strategy.offlineAccess, serverScopes: discovery.metadata.scopes_supported }).join(" ");
  await grant(engine, discovery, scope, signal, true);
}
