/**
 * The public OAuth providers. Both implement the HTTP client transport's `HttpAuth`
 * structurally (`token()`, `unauthorized()`), so `@proto/transport-http` takes them as its
 * `auth` option without either package importing the other.
 *
 * - `createOAuth`: a user authorizes (authorization code + PKCE S256) through a redirect
 *   handler; the client identity is pre-registered, a Client ID Metadata Document, or a
 *   dynamic registration.
 * - `createClientCredentialsAuth`: a machine authenticates itself (client credentials) with a
 *   secret or a private-key JWT.
 */
import type { Logger } from "@proto/jsonrpc";
import type { ClientIdentity, ClientSigningKey, KeyCache, TokenEndpointAuthMethod } from "./client-auth";
import { OAuthError, OAuthErrorCode } from "./errors";
import { runAuthorizationCode, runClientCredentials } from "./grants";
import type { FetchLike, HttpSettings } from "./http";
import type { RedirectHandler } from "./redirect";
import { type ClientMetadata, identityOf, identityOfRegistration, type PreRegisteredClient } from "./registration";
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
}

/** Options of `createOAuth` (a user authorizes). */
export interface OAuthOptions extends OAuthCommonOptions {
  /** How the user reaches the authorization endpoint; without one, a challenge throws `AUTHORIZATION_REQUIRED`. */
  readonly redirect?: RedirectHandler;
  /** Pre-registered clients, used first (an entry with `issuer` only for that server). */
  readonly clients?: PreRegisteredClient | readonly PreRegisteredClient[];
  /** An https URL serving this client's Client ID Metadata Document, used when the server supports them. */
  readonly clientMetadataUrl?: string;
  /** Metadata sent with dynamic registrations (`client_name`, `client_uri`, ...). */
  readonly clientMetadata?: ClientMetadata;
  /** Ask for `offline_access` when the authorization server lists it (default true). */
  readonly offlineAccess?: boolean;
}

/** Options of `createClientCredentialsAuth` (a machine authenticates itself). */
export interface ClientCredentialsOptions extends OAuthCommonOptions {
  readonly clientId: string;
  /** A client secret (`client_secret_basic`, or `client_secret_post` when only that is listed). */
  readonly clientSecret?: string;
  /** A private key for `private_key_jwt` (RFC 7523). */
  readonly signingKey?: ClientSigningKey;
  /** Force a token endpoint authentication method. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
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
  /** Forgets this server's tokens, and with `registrations: true` its dynamic registrations too. */
  clear(options?: { readonly registrations?: boolean }): Promise<void>;
}

function settingsOf(options: OAuthCommonOptions, factory: string): SessionSettings {
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
  };
}

function wrap(settings: SessionSettings, strategy: GrantStrategy): OAuthProvider {
  const session = createSession(settings, strategy);
  return {
    token: () => session.token(),
    unauthorized: (context) => session.unauthorized(context),
    authorize: (options) => session.authorize(options?.signal),
    tokens: () => session.tokens(),
    clear: (options) => session.clear(options?.registrations === true),
  };
}

/**
 * Creates the OAuth provider for a user-facing MCP client (MCP 2025-11-25 authorization):
 * pass it as the HTTP client transport's `auth`. The provider owns nothing that needs
 * closing; each redirect session it opens is closed when its authorization ends.
 */
export function createOAuth(options: OAuthOptions): OAuthProvider {
  const settings = settingsOf(options, "createOAuth");
  const clients = options.clients === undefined ? [] : Array.isArray(options.clients) ? options.clients : [options.clients as PreRegisteredClient];
  for (const client of clients) {
    if (typeof client?.clientId !== "string" || client.clientId === "") throw new TypeError("createOAuth: every entry of clients needs a clientId.");
  }
  const metadataUrl = options.clientMetadataUrl;
  if (metadataUrl !== undefined) checkMetadataUrl(metadataUrl);
  const strategy: GrantStrategy = {
    offlineAccess: options.offlineAccess !== false,
    obtain: (discovery, scope, access, signal) => {
      if (options.redirect === undefined) {
        return Promise.reject(
          new OAuthError(OAuthErrorCode.AuthorizationRequired, `${settings.server.href} needs a user authorization; pass a redirect handler to createOAuth, or call authorize() from a host that has one.`),
        );
      }
      return runAuthorizationCode({
        http: settings.http,
        discovery,
        scope,
        keys: settings.keys,
        now: settings.now,
        redirect: options.redirect,
        preRegistered: clients,
        ...(metadataUrl === undefined ? {} : { clientMetadataUrl: metadataUrl }),
        ...(options.clientMetadata === undefined ? {} : { clientMetadata: options.clientMetadata }),
        stored: access.state,
        onRegistration: (client) => access.saveRegistration(discovery.issuer, client),
        ...(signal === undefined ? {} : { signal }),
      });
    },
    identityFor: (clientId, issuer, state) => {
      const pre = clients.find((client) => client.clientId === clientId);
      if (pre !== undefined) return identityOf(pre);
      if (clientId === metadataUrl) return { clientId, method: "none" };
      const registration = state?.clients?.[issuer];
      return registration?.clientId === clientId ? identityOfRegistration(registration) : { clientId };
    },
  };
  return wrap(settings, strategy);
}

function checkMetadataUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`createOAuth: clientMetadataUrl must be an absolute https URL, got ${JSON.stringify(value)}.`);
  }
  if (url.protocol !== "https:" || url.pathname === "/" || url.hash !== "") {
    throw new TypeError(`createOAuth: clientMetadataUrl must be an https URL with a path and no fragment (Client ID Metadata Documents), got ${value}.`);
  }
}

/**
 * Creates the OAuth provider for a machine client (the client credentials grant): pass it as
 * the HTTP client transport's `auth`. Needs `clientSecret` or `signingKey`.
 */
export function createClientCredentialsAuth(options: ClientCredentialsOptions): OAuthProvider {
  const settings = settingsOf(options, "createClientCredentialsAuth");
  if (typeof options.clientId !== "string" || options.clientId === "") throw new TypeError("createClientCredentialsAuth: clientId is required.");
  if (options.clientSecret === undefined && options.signingKey === undefined) {
    throw new TypeError("createClientCredentialsAuth: pass clientSecret or signingKey; the client credentials grant needs a confidential client.");
  }
  const identity: ClientIdentity = {
    clientId: options.clientId,
    ...(options.clientSecret === undefined ? {} : { clientSecret: options.clientSecret }),
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
    ...(options.tokenEndpointAuthMethod === undefined ? {} : { method: options.tokenEndpointAuthMethod }),
  };
  const strategy: GrantStrategy = {
    offlineAccess: false,
    obtain: (discovery, scope, _access, signal) =>
      runClientCredentials({ http: settings.http, discovery, scope, keys: settings.keys, now: settings.now, client: identity, ...(signal === undefined ? {} : { signal }) }),
    identityFor: () => identity,
  };
  return wrap(settings, strategy);
}
