/**
 * The auth steps of every request (MCP 2025-11-25 basic/authorization): the `authenticate` hook
 * (nothing is 401 with a Bearer challenge pointing at the RFC 9728 metadata), and the scope check
 * (a request whose scopes the principal lacks is 403 `insufficient_scope`, RFC 6750 section 3.1).
 */
import type { JsonRpcMessage, Principal } from "@proto/jsonrpc";
import { isRequest } from "@proto/jsonrpc";
import { bearerChallenge } from "../auth/challenge";
import { HttpFaultCode } from "./errors";
import { errorAnswer } from "./http-util";
import type { FullAnswer, HttpIn, OutHeaders } from "./io";
import type { ResolvedOptions } from "./options";

/** The result of authentication: `undefined` means the request was already answered. */
export type AuthOutcome = { readonly principal: Principal | undefined } | FullAnswer;

const ANONYMOUS: AuthOutcome = { principal: undefined };

/**
 * The `WWW-Authenticate` value of a 401 (RFC 6750 section 3, RFC 9728 section 5.1): the scopes a
 * client needs to use the resource, the metadata URL, and `invalid_token` when a credential was
 * presented. The Streamable HTTP handler and the WebSocket upgrade send the same challenge.
 */
export function unauthorizedChallenge(metadataUrl: string | undefined, scopes: readonly string[], presented: boolean): string {
  return bearerChallenge({
    ...(metadataUrl !== undefined ? { resourceMetadata: metadataUrl } : {}),
    scopes,
    ...(presented ? { error: "invalid_token", errorDescription: "the access token is invalid or expired" } : {}),
  });
}

/**
 * The `WWW-Authenticate` value of a 403 `insufficient_scope` (RFC 6750 section 3.1): the granted
 * and the missing scopes together, so a step-up keeps what was granted.
 */
export function insufficientScopeChallenge(metadataUrl: string | undefined, granted: readonly string[], needed: readonly string[]): string {
  return bearerChallenge({
    error: "insufficient_scope",
    scopes: [...granted, ...needed],
    ...(metadataUrl !== undefined ? { resourceMetadata: metadataUrl } : {}),
    errorDescription: `this request needs the scope(s) ${needed.join(" ")}`,
  });
}

/**
 * Runs the `authenticate` hook; a refusal (401 whose challenge carries `challengeScopes`, 500,
 * 503) is returned as the answer. Without a hook the request is anonymous at once (no promise).
 */
export function authenticateRequest(opts: ResolvedOptions, metadataUrl: string | undefined, input: HttpIn, headers: OutHeaders): AuthOutcome | Promise<AuthOutcome> {
  const authenticate = opts.authenticate;
  return authenticate ? authenticateWith(authenticate, opts, metadataUrl, input, headers) : ANONYMOUS;
}

async function authenticateWith(authenticate: NonNullable<ResolvedOptions["authenticate"]>, opts: ResolvedOptions, metadataUrl: string | undefined, input: HttpIn, headers: OutHeaders): Promise<AuthOutcome> {
  let principal: Principal | undefined;
  try {
    principal = await authenticate(input.request);
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === HttpFaultCode.JwksUnavailable) {
      return errorAnswer(503, "authentication is temporarily unavailable; retry later", { ...headers, "retry-after": "5" });
    }
    opts.logger?.error(`${HttpFaultCode.AuthFailed}: the authenticate hook threw`, error);
    return errorAnswer(500, "authentication failed", headers);
  }
  if (principal === undefined || principal === null || typeof principal.subject !== "string") {
    const presented = input.header("authorization") !== undefined;
    const challenge = unauthorizedChallenge(metadataUrl, opts.challengeScopes, presented);
    return errorAnswer(401, presented ? "the access token is invalid or expired" : "authorization required: send Authorization: Bearer <token>", { ...headers, "www-authenticate": challenge });
  }
  return { principal };
}

/**
 * A key binding a session to its principal (empty for anonymous sessions): the issuer, the
 * subject, and which claims it came from, `sub` and `client_id` apart, so a client-credentials
 * token whose `client_id` equals a user's `sub` cannot reach that user's sessions, nor one user's
 * token issued to another client. JSON keeps the parts unambiguous whatever they contain.
 */
export function principalKey(principal: Principal | undefined): string {
  if (!principal) return "";
  const claim = (name: string): string | null => {
    const value = principal.claims?.[name];
    return typeof value === "string" ? value : null;
  };
  return JSON.stringify([claim("iss") ?? "", principal.subject, claim("sub"), claim("client_id")]);
}

/**
 * Checks every request of a frame against `scopesFor`. Answers 403 `insufficient_scope` (with the
 * granted and the missing scopes in `scope`, so a step-up keeps what was granted) and returns
 * false when one is missing.
 */
export function checkScopes(opts: ResolvedOptions, metadataUrl: string | undefined, messages: readonly JsonRpcMessage[], principal: Principal | undefined, headers: OutHeaders): FullAnswer | undefined {
  const scopesFor = opts.scopesFor;
  if (!scopesFor) return undefined;
  const granted = Array.isArray(principal?.scopes) ? principal.scopes : [];
  const missing = new Set<string>();
  for (const message of messages) {
    if (!isRequest(message)) continue;
    for (const scope of scopesFor(message) ?? []) if (!granted.includes(scope)) missing.add(scope);
  }
  if (missing.size === 0) return undefined;
  const needed = [...missing];
  const challenge = insufficientScopeChallenge(metadataUrl, granted, needed);
  return errorAnswer(403, `insufficient scope: this request needs ${needed.join(" ")}`, { ...headers, "www-authenticate": challenge });
}
