/**
 * The auth step of a WebSocket upgrade, with the Streamable HTTP handler's rules and challenges
 * (MCP 2025-11-25 basic/authorization; RFC 6750 section 3, RFC 9728 section 5.1): no principal is
 * 401 with `WWW-Authenticate: Bearer scope="<challengeScopes>", resource_metadata="<metadata URL>"`
 * (and `error="invalid_token"` when a credential was presented); a principal without the
 * `requiredScopes` is 403 `insufficient_scope`; a hook that throws is 500, or 503 with
 * `Retry-After` when the JWKS is unreachable. A WebSocket has no HTTP status per request, so the
 * upgrade is the one place a scope can be refused with a challenge.
 */
import type { Logger, Principal } from "@proto/jsonrpc";
import type { ProtectedResourceOptions } from "../auth/metadata";
import { protectedResourceMetadataUrl } from "../auth/metadata";
import { insufficientScopeChallenge, unauthorizedChallenge } from "../server/auth-step";
import { HttpFaultCode } from "../server/errors";
import type { HttpRequestLike } from "../server/io";
import { checkScopeTokens, scopeList } from "../server/options";

/** The auth options of `createWebSocketServer` (the same names and meaning as the Streamable HTTP handler's). */
export interface UpgradeAuthOptions {
  /** Authenticates the upgrade request; `undefined` refuses it with 401. Default: no authentication. */
  authenticate?(request: HttpRequestLike): Promise<Principal | undefined> | Principal | undefined;
  /** The resource whose RFC 9728 metadata the challenges point at (`resource_metadata`); publish it with the Streamable HTTP handler's option of the same name. */
  readonly protectedResource?: ProtectedResourceOptions;
  /** The scopes a 401 challenge asks for (`scope="..."`). Default `protectedResource.scopesSupported`; `[]` sends no `scope`. */
  readonly challengeScopes?: readonly string[];
  /** Scopes every connection needs; a principal without one is 403 `insufficient_scope` with the granted and the missing scopes in the challenge. Default none. */
  readonly requiredScopes?: readonly string[];
  /** @deprecated The whole `WWW-Authenticate` value of a 401, sent as given; use `protectedResource` and `challengeScopes`, which build the challenge the HTTP handler sends. */
  readonly challenge?: string;
  /** Receives hook failures. Default: discard. */
  readonly logger?: Logger;
}

/** An upgrade the auth step refused: the status, a plain-text message and the headers. */
export interface UpgradeRefusal {
  readonly status: 401 | 403 | 500 | 503;
  readonly message: string;
  readonly headers: { readonly [name: string]: string };
}

/** Decides an upgrade request: its principal (undefined without `authenticate`), or a refusal. */
export type UpgradeAuth = (request: HttpRequestLike) => Promise<{ readonly principal: Principal | undefined } | UpgradeRefusal>;

/** Checks the auth options once (a bad scope is a `TypeError` now) and returns the step. */
export function createUpgradeAuth(options: UpgradeAuthOptions): UpgradeAuth {
  const metadataUrl = options.protectedResource ? protectedResourceMetadataUrl(options.protectedResource.resource) : undefined;
  const challengeScopes = scopeList(options);
  const required = checkScopeTokens("requiredScopes", options.requiredScopes ?? []);
  return async (request): Promise<{ readonly principal: Principal | undefined } | UpgradeRefusal> => {
    if (!options.authenticate) return { principal: undefined };
    let principal: Principal | undefined;
    try {
      principal = await options.authenticate(request);
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === HttpFaultCode.JwksUnavailable) {
        return { status: 503, message: "authentication is temporarily unavailable; retry later", headers: { "Retry-After": "5" } };
      }
      options.logger?.error(`${HttpFaultCode.AuthFailed}: the WebSocket authenticate hook threw; the upgrade was refused with 500`, error);
      return { status: 500, message: "authentication failed", headers: {} };
    }
    if (principal === undefined || principal === null || typeof principal.subject !== "string") {
      const presented = request.headers.get("authorization") !== null;
      const challenge = options.challenge ?? unauthorizedChallenge(metadataUrl, challengeScopes, presented);
      const message = presented ? "the access token is invalid or expired" : "authentication required: send Authorization: Bearer <token>";
      return { status: 401, message, headers: { "WWW-Authenticate": challenge } };
    }
    const granted = Array.isArray(principal.scopes) ? principal.scopes : [];
    const needed = required.filter((scope) => !granted.includes(scope));
    if (needed.length > 0) {
      const challenge = insufficientScopeChallenge(metadataUrl, granted, needed);
      return { status: 403, message: `insufficient scope: a connection needs ${needed.join(" ")}`, headers: { "WWW-Authenticate": challenge } };
    }
    return { principal };
  };
}
