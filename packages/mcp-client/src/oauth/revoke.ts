/**
 * Revocation of stored tokens when a session is cleared (RFC 7009).
 */
import { applyClientAuth } from "./client-auth";
import { OAuthFaultCode } from "./errors";
import { postForm } from "./http";
import type { Engine } from "./session-types";
import type { StoredTokens } from "./token-store";
import { assertSecureUrl, parseUrl } from "./urls";

/** Revokes the refresh token, then the access token (RFC 7009 §2.1); best effort: failures are logged. */
export async function revokeTokens({ settings, strategy, state }: Engine, tokens: StoredTokens): Promise<void> {
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
