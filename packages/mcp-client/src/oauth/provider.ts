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
import type { ClientIdentity, ClientSigningKey, TokenEndpointAuthMethod } from "./client-auth";
import { OAuthError, OAuthFaultCode } from "./errors";
import { runAuthorizationCode, runClientCredentials } from "./grants";
import { type OAuthCommonOptions, type OAuthProvider, settingsOf, wrapSession } from "./provider-options";
import type { RedirectHandler } from "./redirect";
import { type ClientMetadata, identityOf, identityOfRegistration, type PreRegisteredClient } from "./registration";
import type { GrantStrategy } from "./session";

export type { OAuthCommonOptions, OAuthProvider } from "./provider-options";

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
  /** Ask for `offline_access` (with `prompt=consent`, as OpenID Connect requires) when the authorization server lists it (default true). */
  readonly offlineAccess?: boolean;
  /**
   * How long the user has to complete an authorization at the authorization endpoint (default 5
   * minutes); then it fails with `TIMEOUT`. A login started by a request is not bounded by that
   * request (nor by the client's `connectTimeoutMs`): a later request joins it.
   */
  readonly authorizationTimeoutMs?: number;
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
  const authorizationTimeoutMs = options.authorizationTimeoutMs ?? 300_000;
  if (!Number.isFinite(authorizationTimeoutMs) || authorizationTimeoutMs <= 0) throw new TypeError("createOAuth: authorizationTimeoutMs must be a positive number of milliseconds.");
  const metadataUrl = options.clientMetadataUrl;
  if (metadataUrl !== undefined) checkMetadataUrl(metadataUrl);
  const strategy: GrantStrategy = {
    offlineAccess: options.offlineAccess !== false,
    obtain: (discovery, scope, access, signal) => {
      if (options.redirect === undefined) {
        return Promise.reject(
          new OAuthError(OAuthFaultCode.AuthorizationRequired, `${settings.server.href} needs a user authorization; pass a redirect handler to createOAuth, or call authorize() from a host that has one.`),
        );
      }
      return runAuthorizationCode({
        http: settings.http,
        discovery,
        scope,
        keys: settings.keys,
        now: settings.now,
        redirect: options.redirect,
        authorizationTimeoutMs,
        preRegistered: clients,
        ...(metadataUrl === undefined ? {} : { clientMetadataUrl: metadataUrl }),
        ...(options.clientMetadata === undefined ? {} : { clientMetadata: options.clientMetadata }),
        stored: access.value,
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
  return wrapSession(settings, strategy);
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
  return wrapSession(settings, strategy);
}
