/**
 * The state machine behind `createOAuth` and `createClientCredentialsAuth`: it holds the
 * tokens of one MCP server, refreshes them before they expire and once on a 401, runs a full
 * authorization on a 401 it cannot refresh away and a step-up on a 403 `insufficient_scope`,
 * with a cap on authorizations per time window so a server that never accepts cannot loop us.
 * One operation runs at a time; concurrent callers wait for it and share its outcome.
 * (The stored value, the operation in flight and the attempt window live in `session-state.ts`.)
 */
import type { Logger } from "@proto/jsonrpc";
import { type BearerChallenge, parseBearerChallenge, splitScope } from "./challenge";
import { applyClientAuth, type ClientIdentity, type KeyCache } from "./client-auth";
import { type Discovery, discover } from "./discovery";
import { OAuthError, OAuthFaultCode, raceAbort } from "./errors";
import type { GrantResult } from "./grants";
import type { DpopProver } from "./dpop";
import { type HttpSettings, postForm } from "./http";
import { coversScopes, selectScope, unionScopes, withOfflineAccess } from "./scopes";
import { requestToken } from "./token-endpoint";
import { createSessionState, type SessionState } from "./session-state";
import type { StoredAuthorization, StoredClient, StoredTokens, TokenStore } from "./token-store";
import { assertSecureUrl, parseUrl, sameIssuer } from "./urls";

/** What differs between the user flow and the machine flow. */
export interface GrantStrategy {
  /** Obtains tokens from the discovered server for `scope`. */
  obtain(discovery: Discovery, scope: string | undefined, session: SessionAccess, signal?: AbortSignal): Promise<GrantResult>;
  /** The identity that obtained tokens for `clientId`, to refresh them. */
  identityFor(clientId: string, issuer: string, state: StoredAuthorization | undefined): ClientIdentity;
  /** Ask for `offline_access` when the server lists it. */
  readonly offlineAccess: boolean;
}

/** What a strategy may read and write while it runs. */
export interface SessionAccess {
  /** What is stored for this server. */
  readonly value: StoredAuthorization | undefined;
  saveRegistration(issuer: string, client: StoredClient): Promise<void>;
}

/** Settings of one session. */
export interface SessionSettings {
  readonly server: URL;
  readonly http: HttpSettings;
  readonly store: TokenStore;
  readonly storeKey: string;
  readonly scope: string | undefined;
  readonly refreshBeforeExpiryMs: number;
  readonly maxAttempts: number;
  readonly attemptWindowMs: number;
  readonly selectIssuer?: (issuers: readonly string[]) => string;
  readonly now: () => number;
  readonly logger?: Logger;
  readonly keys: KeyCache;
  /** Proof of possession (RFC 9449) for every token request, when the provider has the `dpop` option. */
  readonly dpop?: DpopProver;
}

/** What the HTTP transport tells the provider about a refusal (the `HttpAuth` contract). */
export interface UnauthorizedContext {
  readonly status: 401 | 403;
  /** The raw `WWW-Authenticate` header. */
  readonly challenge: string | undefined;
  readonly url: URL;
  readonly signal?: AbortSignal;
}

/** What the flows below share. */
interface Engine {
  readonly settings: SessionSettings;
  readonly strategy: GrantStrategy;
  readonly state: SessionState;
}

async function refresh({ settings, strategy, state }: Engine, tokens: StoredTokens, signal?: AbortSignal): Promise<void> {
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
async function usable(settings: SessionSettings, tokens: StoredTokens): Promise<boolean> {
  return tokens.tokenType !== "DPoP" || (settings.dpop !== undefined && tokens.dpopJkt === (await settings.dpop.thumbprint()));
}

function discoverFor({ settings }: Engine, challenge: BearerChallenge | undefined, signal?: AbortSignal): Promise<Discovery> {
  return discover({
    http: settings.http,
    server: settings.server,
    ...(challenge?.resourceMetadata === undefined ? {} : { resourceMetadataUrl: challenge.resourceMetadata }),
    ...(settings.selectIssuer === undefined ? {} : { selectIssuer: settings.selectIssuer }),
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
    ...(signal === undefined ? {} : { signal }),
  });
}

async function fullAuthorization(engine: Engine, challenge: BearerChallenge | undefined, signal: AbortSignal | undefined, counted: boolean, found?: Discovery): Promise<void> {
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

async function stepUp(engine: Engine, challenge: BearerChallenge, signal?: AbortSignal): Promise<void> {
  if (challenge.scope === undefined) return fullAuthorization(engine, challenge, signal, true);
  const discovery = await discoverFor(engine, challenge, signal);
  const union = splitScope(unionScopes(engine.state.value?.tokens?.scope, challenge.scope));
  const scope = withOfflineAccess(union, { offlineAccess: engine.strategy.offlineAccess, serverScopes: discovery.metadata.scopes_supported }).join(" ");
  await grant(engine, discovery, scope, signal, true);
}

/** Revokes the refresh token, then the access token (RFC 7009 §2.1); best effort: failures are logged. */
async function revokeTokens({ settings, strategy, state }: Engine, tokens: StoredTokens): Promise<void> {
  if (tokens.revocationEndpoint === undefined) {
    settings.logger?.warn(`The authorization server of ${settings.server.href} has no revocation endpoint; the tokens were only forgotten.`);
    return;
  }
  const endpoint = parseUrl(tokens.revocationEndpoint, "The stored revocation endpoint");
  assertSecureUrl(endpoint, "the revocation endpoint", settings.http.allowInsecureHttp);
  const client = strategy.identityFor(tokens.clientId, tokens.issuer, state.value);
  const pairs: [string, string | undefined][] = [["refresh_token", tokens.refreshToken], ["access_token", tokens.accessToken]];
  for (const [hint, token] of pairs) {
    if (token === undefined) continue;
    const form = new URLSearchParams({ token, token_type_hint: hint });
    const headers: Record<string, string> = {};
    try {
      await applyClientAuth(tokens.authMethod, client, form, headers, { audience: tokens.issuer, now: settings.now(), keys: settings.keys });
      const result = await postForm(settings.http, endpoint, form, headers, OAuthFaultCode.TokenRequestFailed);
      if (!result.ok) settings.logger?.warn(`Revoking the ${hint} at ${endpoint.href} answered HTTP ${result.status}.`);
    } catch (error) {
      settings.logger?.warn(`Revoking the ${hint} at ${endpoint.href} failed.`, error);
    }
  }
}

/** Creates the session engine; `provider-options.ts` wraps it into the public provider. */
export function createSession(settings: SessionSettings, strategy: GrantStrategy) {
  const state = createSessionState(settings);
  const engine: Engine = { settings, strategy, state };
  let refreshTriedFor: string | undefined;
  /** The access token the last refresh after a 401 gave. */
  let refreshedTo: string | undefined;

  /**
   * A 401: refresh once per access token (unless the challenge wants more scope), else authorize.
   * When the token a refresh just gave is refused too, the resource may have moved to another
   * authorization server (its metadata names a new issuer): then authorize there instead.
   */
  const onUnauthorized = async (challenge: BearerChallenge | undefined, signal?: AbortSignal): Promise<void> => {
    const tokens = state.value?.tokens;
    if (tokens !== undefined && tokens.accessToken === refreshedTo) {
      const discovery = await discoverFor(engine, challenge, signal);
      if (!sameIssuer(discovery.issuer, tokens.issuer)) return fullAuthorization(engine, challenge, signal, true, discovery);
    }
    const wantsMore = challenge?.scope !== undefined && !coversScopes(tokens?.scope, challenge.scope);
    if (tokens?.refreshToken !== undefined && !wantsMore && refreshTriedFor !== tokens.accessToken) {
      refreshTriedFor = tokens.accessToken;
      try {
        await refresh(engine, tokens, signal);
        refreshedTo = state.value?.tokens?.accessToken;
        return;
      } catch (error) {
        if (error instanceof OAuthError && error.code === OAuthFaultCode.Aborted) throw error;
        settings.logger?.warn(`Refreshing the token of ${settings.server.href} after a 401 failed; authorizing again.`, error);
      }
    }
    await fullAuthorization(engine, challenge, signal, true);
  };

  return {
    async token(): Promise<string | undefined> {
      await state.load();
      if (state.flight !== undefined) await state.flight.catch(() => undefined);
      const tokens = state.value?.tokens;
      if (tokens === undefined || !(await usable(settings, tokens))) return undefined;
      const now = settings.now();
      if (tokens.expiresAt === undefined || now < refreshAt(tokens, settings.refreshBeforeExpiryMs)) return tokens.accessToken;
      if (tokens.refreshToken !== undefined) {
        await state.single(() => refresh(engine, tokens)).catch((error: unknown) => settings.logger?.warn(`Refreshing the token of ${settings.server.href} failed.`, error));
        const fresh = state.value?.tokens;
        if (fresh !== undefined && fresh !== tokens) return fresh.accessToken;
      }
      return now < tokens.expiresAt ? tokens.accessToken : undefined;
    },

    async unauthorized(context: UnauthorizedContext): Promise<boolean> {
      if (context.url.origin !== settings.server.origin) {
        throw new OAuthError(
          OAuthFaultCode.ResourceMismatch,
          `This OAuth provider serves ${settings.server.origin}, but was asked to authorize ${context.url.origin}; create one provider per server.`,
        );
      }
      const challenge = parseBearerChallenge(context.challenge);
      if (context.status === 403 && challenge?.error !== "insufficient_scope") return false;
      await state.load();
      // The request's signal only stops this caller waiting: the authorization goes on without it, so a
      // connect attempt that gives up (its timeout, a retry) does not close the user's login page; the
      // next request joins it. The user's part has its own deadline (`authorizationTimeoutMs`).
      if (state.flight !== undefined && (await raceAbort(state.flight.then(() => true, () => false), context.signal))) return true;
      await raceAbort(state.single(() => (context.status === 403 && challenge !== undefined ? stepUp(engine, challenge) : onUnauthorized(challenge))), context.signal);
      return true;
    },

    async authorize(signal?: AbortSignal): Promise<void> {
      await state.load();
      await state.single(() => fullAuthorization(engine, undefined, signal, false));
    },

    async tokens(): Promise<StoredTokens | undefined> {
      await state.load();
      return state.value?.tokens;
    },

    async clear(registrations: boolean, revoke: boolean): Promise<void> {
      await state.load();
      const tokens = state.value?.tokens;
      if (revoke && tokens !== undefined) await revokeTokens(engine, tokens);
      refreshTriedFor = undefined;
      state.resetAttempts();
      const clients = state.value?.clients;
      await state.save(registrations || clients === undefined ? undefined : { clients });
    },
  };
}

/** When to refresh: `margin` before expiry, but never earlier than half the token's lifetime. */
export function refreshAt(tokens: StoredTokens, margin: number): number {
  const expiresAt = tokens.expiresAt ?? Number.POSITIVE_INFINITY;
  const lifetime = tokens.issuedAt === undefined ? Number.POSITIVE_INFINITY : expiresAt - tokens.issuedAt;
  return expiresAt - Math.min(margin, Math.max(0, lifetime / 2));
}

/** The engine's public face, before `provider.ts` adds option handling. */
export type Session = ReturnType<typeof createSession>;
