/**
 * What every OAuth provider shares: the common options, the `OAuthProvider` face (the
 * transport's `HttpAuth` plus explicit controls), option validation, and the wrapper that
 * turns a session engine into a provider.
 */
import type { Logger } from "@proto/jsonrpc";
import type { KeyCache } from "./client-auth";
import { createDpopProver, type DpopOptions } from "./dpop";
import { createDpopFetch } from "./dpop-fetch";
import type { FetchLike, HttpSettings } from "./http";
import { createSession, type GrantStrategy, type SessionSettings, type UnauthorizedContext } from "./session";
import { createMemoryTokenStore, type StoredTokens, type TokenStore } from "./token-store";
import { canonicalResource } from "./urls";

/** Options both providers share. */
export interface OAuthCommonOptions {
  /** The MCP endpoint the provider authorizes for (one provider per server). */
  readonly serverUrl: string | URL;
  /** Where tokens and registrations are kept (default: in memory). */
  readonly store?: TokenStore;
  /** The store key (default: the canonical server URI). */
  readonly storeKey?: string;
  /** Scope to ask for when the challenge names none (space-separated); else `scopes_supported` of the resource. */
  readonly scope?: string;
  /** The fetch used for every OAuth request (default: the global one). */
  readonly fetch?: FetchLike;
  /** Per-request timeout of OAuth HTTP calls (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** The largest metadata or token response read (default 1 MiB). */
  readonly maxResponseBytes?: number;
  /** Refresh this long before the access token expires (default 60 s). */
  readonly refreshBeforeExpiryMs?: number;
  /** Authorizations allowed per `attemptWindowMs` in answer to challenges (default 3). */
  readonly maxAuthorizationAttempts?: number;
  /** The window of `maxAuthorizationAttempts` (default 60 s). */
  readonly attemptWindowMs?: number;
  /** Picks one of the Protected Resource Metadata's `authorization_servers` (default: the first). */
  readonly selectAuthorizationServer?: (issuers: readonly string[]) => string;
  /** The clock (milliseconds since the epoch); inject one in tests. */
  readonly now?: () => number;
  /** Where warnings go (a failed refresh, a missing metadata location). */
  readonly logger?: Logger;
  /** Allow plain http to non-loopback authorization servers. Never in production. */
  readonly dangerouslyAllowInsecureHttp?: boolean;
  /**
   * Sender-constrained tokens (DPoP, RFC 9449; the MCP DPoP extension): every token request
   * carries a proof of the provider's key, so the tokens come back bound to it. `true` uses an
   * ES256 key generated in memory. Give the transport `fetch: provider.wrapFetch()` so that each
   * MCP request presents the token with the DPoP scheme and a fresh proof.
   */
  readonly dpop?: true | DpopOptions;
}

/** An OAuth provider: an `HttpAuth` for the HTTP client transport, plus explicit controls. */
export interface OAuthProvider {
  /** The bearer token to send now (refreshed first when it is about to expire), or undefined. */
  token(): Promise<string | undefined>;
  /**
   * Handles a 401, or a 403 with `error="insufficient_scope"`: refresh, authorize or step up.
   * Resolves true when a retry may succeed, false when the refusal is not OAuth's to fix;
   * rejects with an `OAuthError` for every refusal.
   */
  unauthorized(context: UnauthorizedContext): Promise<boolean>;
  /** Discovers and authorizes now (a CLI `login` command), without waiting for a 401. */
  authorize(options?: { readonly signal?: AbortSignal }): Promise<void>;
  /** The tokens held now, if any (for status displays; never log them). */
  tokens(): Promise<StoredTokens | undefined>;
  /**
   * Forgets this server's tokens; `revoke: true` first revokes them at the authorization server
   * (RFC 7009, best effort), `registrations: true` also forgets its dynamic registrations.
   */
  clear(options?: { readonly registrations?: boolean; readonly revoke?: boolean }): Promise<void>;
  /**
   * The fetch to give the HTTP client transport (`createStreamableHttpClientTransport(url, { auth, fetch: auth.wrapFetch() })`),
   * wrapping `next` (default: the global fetch). With the `dpop` option it presents DPoP-bound
   * tokens with the DPoP scheme, a fresh proof per request and the server's nonce (retrying once
   * on `use_dpop_nonce`); without it, it is `next` itself.
   */
  wrapFetch(next?: FetchLike): FetchLike;
}

/** Validates the common options and applies their defaults; misuse throws a `TypeError` naming `factory`. */
export function settingsOf(options: OAuthCommonOptions, factory: string): SessionSettings {
  if (typeof options !== "object" || options === null) throw new TypeError(`${factory}: options are required.`);
  let server: URL;
  try {
    server = new URL(options.serverUrl);
  } catch {
    throw new TypeError(`${factory}: serverUrl must be an absolute URL, got ${JSON.stringify(String(options.serverUrl))}.`);
  }
  const positive = (value: number | undefined, fallback: number, name: string): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`${factory}: ${name} must be a non-negative number.`);
    return value;
  };
  const http: HttpSettings = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    timeoutMs: positive(options.requestTimeoutMs, 30_000, "requestTimeoutMs"),
    maxBytes: positive(options.maxResponseBytes, 1024 * 1024, "maxResponseBytes"),
    allowInsecureHttp: options.dangerouslyAllowInsecureHttp === true,
  };
  return {
    server,
    http,
    store: options.store ?? createMemoryTokenStore(),
    storeKey: options.storeKey ?? canonicalResource(server),
    scope: options.scope,
    refreshBeforeExpiryMs: positive(options.refreshBeforeExpiryMs, 60_000, "refreshBeforeExpiryMs"),
    maxAttempts: positive(options.maxAuthorizationAttempts, 3, "maxAuthorizationAttempts"),
    attemptWindowMs: positive(options.attemptWindowMs, 60_000, "attemptWindowMs"),
    ...(options.selectAuthorizationServer === undefined ? {} : { selectIssuer: options.selectAuthorizationServer }),
    now: options.now ?? Date.now,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    keys: new Map() as KeyCache,
    ...(options.dpop === undefined ? {} : { dpop: createDpopProver(options.dpop === true ? {} : options.dpop, options.now ?? Date.now) }),
  };
}

/** Wraps a session engine into the public provider. */
export function wrapSession(settings: SessionSettings, strategy: GrantStrategy): OAuthProvider {
  const session = createSession(settings, strategy);
  return {
    token: () => session.token(),
    unauthorized: (context) => session.unauthorized(context),
    authorize: (options) => session.authorize(options?.signal),
    tokens: () => session.tokens(),
    clear: (options) => session.clear(options?.registrations === true, options?.revoke === true),
    wrapFetch: (next = (input, init) => fetch(input, init)) => (settings.dpop === undefined ? next : createDpopFetch(settings.dpop, () => session.tokens(), next)),
  };
}

