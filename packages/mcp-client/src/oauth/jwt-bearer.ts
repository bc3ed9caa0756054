/**
 * Enterprise-managed authorization (the MCP ext-auth "Enterprise-Managed Authorization",
 * SEP-990): the enterprise identity provider exchanges the user's ID token for an Identity
 * Assertion JWT Authorization Grant (ID-JAG, RFC 8693 token exchange), which the MCP
 * server's authorization server exchanges for an access token (the RFC 7523 §2.1 JWT bearer
 * grant). `createJwtBearerAuth` runs the second step with any assertion source;
 * `requestIdJag` is the first step.
 */
import { chooseAuthMethod, checkSigningAlgorithm, type ClientIdentity, type ClientSigningKey, type TokenEndpointAuthMethod } from "./client-auth";
import { OAuthError, OAuthFaultCode } from "./errors";
import { type FetchLike, postForm } from "./http";
import { listAllows } from "./metadata";
import { type OAuthCommonOptions, type OAuthProvider, settingsOf, wrapSession } from "./provider-options";
import type { GrantStrategy } from "./session";
import { requestToken } from "./token-endpoint";
import { assertSecureUrl, parseUrl } from "./urls";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** What an assertion source is told about the authorization it is asked for. */
export interface AssertionRequest {
  /** The MCP server's authorization server (the `audience` of an ID-JAG). */
  readonly issuer: string;
  /** The MCP server's resource identifier (RFC 8707). */
  readonly resource: string;
  /** The scope the provider will ask for, if any. */
  readonly scope: string | undefined;
  readonly signal?: AbortSignal;
}

/** Options of `createJwtBearerAuth`. */
export interface JwtBearerOptions extends OAuthCommonOptions {
  /** The client id at the MCP server's authorization server. */
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly signingKey?: ClientSigningKey;
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  /** Produces a fresh assertion (an ID-JAG from `requestIdJag`) for each authorization. */
  readonly assertion: (request: AssertionRequest) => Promise<string>;
}

/**
 * Creates a provider that authorizes with the JWT bearer grant (RFC 7523 §2.1): on a 401 it
 * discovers the authorization server, asks `assertion` for a grant, and exchanges it.
 */
export function createJwtBearerAuth(options: JwtBearerOptions): OAuthProvider {
  const settings = settingsOf(options, "createJwtBearerAuth");
  if (typeof options.clientId !== "string" || options.clientId === "") throw new TypeError("createJwtBearerAuth: clientId is required.");
  if (typeof options.assertion !== "function") throw new TypeError("createJwtBearerAuth: assertion must be a function returning the grant JWT.");
  const client: ClientIdentity = {
    clientId: options.clientId,
    ...(options.clientSecret === undefined ? {} : { clientSecret: options.clientSecret }),
    ...(options.signingKey === undefined ? {} : { signingKey: options.signingKey }),
    ...(options.tokenEndpointAuthMethod === undefined ? {} : { method: options.tokenEndpointAuthMethod }),
  };
  const strategy: GrantStrategy = {
    offlineAccess: false,
    identityFor: () => client,
    async obtain(discovery, scope, _access, signal) {
      const { metadata } = discovery;
      if (!listAllows(metadata.grant_types_supported, JWT_BEARER)) {
        throw new OAuthError(OAuthFaultCode.GrantUnsupported, `The authorization server ${discovery.issuer} does not list the JWT bearer grant.`, {
          detail: { advertised: metadata.grant_types_supported },
        });
      }
      const method = chooseAuthMethod(client, metadata.token_endpoint_auth_methods_supported);
      checkSigningAlgorithm(client, metadata.token_endpoint_auth_signing_alg_values_supported);
      const assertion = await options.assertion({ issuer: metadata.issuer, resource: discovery.resource, scope, ...(signal === undefined ? {} : { signal }) });
      const tokens = await requestToken({
        http: settings.http,
        endpoint: parseUrl(metadata.token_endpoint, "The token_endpoint"),
        params: { grant_type: JWT_BEARER, assertion, scope, resource: discovery.resource },
        client,
        method,
        issuer: metadata.issuer,
        keys: settings.keys,
        now: settings.now,
        ...(signal === undefined ? {} : { signal }),
      });
      return { tokens, clientId: client.clientId, method };
    },
  };
  return wrapSession(settings, strategy);
}

/** Options of `requestIdJag` (RFC 8693 token exchange at the enterprise identity provider). */
export interface IdJagRequest {
  /** The identity provider's token endpoint. */
  readonly tokenEndpoint: string;
  /** The user's ID token (or SAML assertion) from the identity provider. */
  readonly subjectToken: string;
  /** Default `urn:ietf:params:oauth:token-type:id_token`. */
  readonly subjectTokenType?: string;
  /** The client id at the identity provider. */
  readonly clientId: string;
  /** The client secret at the identity provider (sent with `client_secret_post`), if it has one. */
  readonly clientSecret?: string;
  /** The MCP server's authorization server issuer. */
  readonly audience: string;
  /** The MCP server's resource identifier. */
  readonly resource: string;
  readonly scope?: string;
  readonly fetch?: FetchLike;
  readonly requestTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** Exchanges an ID token for an ID-JAG at the identity provider; resolves with the ID-JAG. */
export async function requestIdJag(request: IdJagRequest): Promise<string> {
  const endpoint = parseUrl(request.tokenEndpoint, "The identity provider token endpoint");
  assertSecureUrl(endpoint, "the identity provider token endpoint");
  const form = new URLSearchParams({
    grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
    requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
    audience: request.audience,
    resource: request.resource,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType ?? "urn:ietf:params:oauth:token-type:id_token",
    client_id: request.clientId,
  });
  if (request.clientSecret !== undefined) form.set("client_secret", request.clientSecret);
  if (request.scope !== undefined) form.set("scope", request.scope);
  const http = { fetch: request.fetch ?? ((input: string | URL, init?: RequestInit) => fetch(input, init)), timeoutMs: request.requestTimeoutMs ?? 30_000, maxBytes: 1024 * 1024, allowInsecureHttp: false };
  const result = await postForm(http, endpoint, form, {}, OAuthFaultCode.TokenRequestFailed, request.signal);
  const body = (typeof result.json === "object" && result.json !== null ? result.json : {}) as Record<string, unknown>;
  if (!result.ok) {
    throw new OAuthError(OAuthFaultCode.TokenRequestFailed, `The identity provider refused the token exchange (${String(body.error ?? `HTTP ${result.status}`)}).`, {
      detail: { status: result.status, error: body.error, errorDescription: body.error_description },
    });
  }
  if (body.issued_token_type !== "urn:ietf:params:oauth:token-type:id-jag" || typeof body.access_token !== "string" || body.access_token === "") {
    throw new OAuthError(OAuthFaultCode.InvalidTokenResponse, "The identity provider's token exchange response carries no ID-JAG (issued_token_type id-jag).");
  }
  return body.access_token;
}
