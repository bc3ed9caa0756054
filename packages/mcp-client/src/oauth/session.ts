/**
 * The state machine behind `createOAuth` and `createClientCredentialsAuth`: it holds the
 * tokens of one MCP server, refreshes them before they expire and once on a 401, runs a full
 * authorization on a 401 it cannot refresh away and a step-up on a 403 `insufficient_scope`,
 * with a cap on authorizations per time window so a server that never accepts cannot loop us.
 * One operation runs at a time; concurrent callers wait for it and share its outcome.
 * (The stored value, the operation in flight and the attempt window live in `session-state.ts`;
 * the flows in `session-flows.ts`, revocation in `revoke.ts`, the types in `session-types.ts`.)
 */
import { parseBearerChallenge } from "./challenge";
import type { BearerChallenge } from "./challenge";
import { OAuthError, OAuthFaultCode, raceAbort } from "./errors";
import { revokeTokens } from "./revoke";
import { coversScopes } from "./scopes";
import { discoverFor, fullAuthorization, refresh, stepUp, usable } from "./session-flows";
import { createSessionState } from "./session-state";
import type { Engine, GrantStrategy, SessionSettings, UnauthorizedContext } from "./session-types";
import type { StoredTokens } from "./token-store";
import { sameIssuer } from "./urls";

export type { GrantStrategy, SessionAccess, SessionSettings, UnauthorizedContext } from "./session-types";

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
