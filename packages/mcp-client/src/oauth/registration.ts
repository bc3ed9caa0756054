/**
 * Client identity (MCP 2025-11-25 "Client Registration Approaches", in its priority order):
 * pre-registered credentials for the server, else a Client ID Metadata Document URL when the
 * server advertises `client_id_metadata_document_supported`, else a kept or new dynamic
 * registration (RFC 7591), else a refusal that says how to pre-register.
 */
import { type ClientIdentity, type ClientSigningKey, isTokenEndpointAuthMethod, type TokenEndpointAuthMethod } from "./client-auth";
import type { Discovery } from "./discovery";
import { OAuthError, OAuthFaultCode } from "./errors";
import { type HttpSettings, postJson } from "./http";
import { type AuthorizationServerMetadata, listAllows } from "./metadata";
import type { StoredAuthorization, StoredClient } from "./token-store";
import { parseUrl, sameIssuer } from "./urls";

/** RFC 7591 §2 client metadata the owner may set; redirect URIs, grants and auth method are set by the provider. */
export interface ClientMetadata {
  readonly client_name?: string;
  readonly client_uri?: string;
  readonly logo_uri?: string;
  readonly contacts?: readonly string[];
  readonly tos_uri?: string;
  readonly policy_uri?: string;
  readonly software_id?: string;
  readonly software_version?: string;
  /** `native` or `web` (OIDC registration); default from the redirect URI (`applicationTypeFor`). */
  readonly application_type?: "native" | "web";
  readonly [member: string]: unknown;
}

/** Credentials obtained out of band (MCP "Preregistration"). */
export interface PreRegisteredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** A private key for `private_key_jwt`. */
  readonly signingKey?: ClientSigningKey;
  /** The issuer these credentials belong to; unset: any authorization server. */
  readonly issuer?: string;
  /** Force a token endpoint authentication method instead of choosing one from the metadata. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** What identity resolution needs. */
export interface IdentityRequest {
  readonly http: HttpSettings;
  readonly discovery: Discovery;
  readonly redirectUri: string;
  readonly preRegistered: readonly PreRegisteredClient[];
  readonly clientMetadataUrl?: string;
  readonly clientMetadata?: ClientMetadata;
  readonly stored: StoredAuthorization | undefined;
  readonly now: number;
  readonly signal?: AbortSignal;
}

/** The identity to use, and a new registration to keep when one was made. */
export interface ResolvedIdentity {
  readonly identity: ClientIdentity;
  readonly registration?: StoredClient;
}

/** Finds the pre-registered client for `issuer`: one bound to it first, then an unbound one. */
export function preRegisteredFor(clients: readonly PreRegisteredClient[], issuer: string): PreRegisteredClient | undefined {
  return clients.find((c) => c.issuer !== undefined && sameIssuer(c.issuer, issuer)) ?? clients.find((c) => c.issuer === undefined);
}

/** Turns pre-registered credentials into a client identity. */
export function identityOf(client: PreRegisteredClient): ClientIdentity {
  return {
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    ...(client.signingKey === undefined ? {} : { signingKey: client.signingKey }),
    ...(client.tokenEndpointAuthMethod === undefined ? {} : { method: client.tokenEndpointAuthMethod }),
  };
}

/** Resolves the client identity for an authorization code flow. */
export async function resolveIdentity(request: IdentityRequest): Promise<ResolvedIdentity> {
  const { discovery } = request;
  const pre = preRegisteredFor(request.preRegistered, discovery.issuer);
  if (pre !== undefined) return { identity: identityOf(pre) };
  if (request.clientMetadataUrl !== undefined && discovery.metadata.client_id_metadata_document_supported === true) {
    return { identity: { clientId: request.clientMetadataUrl, method: "none" } };
  }
  const kept = request.stored?.clients?.[discovery.issuer];
  if (kept !== undefined && isUsable(kept, request.redirectUri, request.now)) return { identity: identityOfRegistration(kept) };
  const endpoint = discovery.metadata.registration_endpoint;
  if (endpoint === undefined) {
    throw new OAuthError(
      OAuthFaultCode.NoClientIdentity,
      `The authorization server ${discovery.issuer} supports neither Client ID Metadata Documents (or no clientMetadataUrl is set) nor dynamic registration; register a client there and pass it as \`clients\`.`,
      { detail: { issuer: discovery.issuer } },
    );
  }
  const registration = await register(request, parseUrl(endpoint, "The registration_endpoint"));
  return { identity: identityOfRegistration(registration), registration };
}

function isUsable(client: StoredClient, redirectUri: string, now: number): boolean {
  const expires = client.clientSecretExpiresAt ?? 0;
  return client.redirectUris.includes(redirectUri) && (expires === 0 || expires * 1000 > now + 60_000);
}

/** Turns a kept registration into a client identity. */
export function identityOfRegistration(client: StoredClient): ClientIdentity {
  return {
    clientId: client.clientId,
    ...(client.clientSecret === undefined ? {} : { clientSecret: client.clientSecret }),
    ...(client.tokenEndpointAuthMethod === undefined ? {} : { method: client.tokenEndpointAuthMethod }),
  };
}

function requestedMethod(metadata: AuthorizationServerMetadata): TokenEndpointAuthMethod {
  const supported = metadata.token_endpoint_auth_methods_supported;
  if (supported?.includes("none") === true) return "none";
  if (listAllows(supported ?? ["client_secret_basic"], "client_secret_basic")) return "client_secret_basic";
  return supported?.includes("client_secret_post") === true ? "client_secret_post" : "none";
}

/**
 * The OIDC `application_type` the redirect URI implies (2026-07-28 client-registration,
 * "Application Type and Redirect URI Constraints"): `native` for loopback and private-scheme
 * redirects (desktop apps, CLIs, local web apps), `web` for redirects to a remote host.
 */
export function applicationTypeFor(redirectUri: string): "native" | "web" {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return "native";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "native";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1" ? "native" : "web";
}

async function register(request: IdentityRequest, endpoint: URL): Promise<StoredClient> {
  const metadata = request.discovery.metadata;
  const body = {
    client_name: "@proto/mcp-client",
    application_type: applicationTypeFor(request.redirectUri),
    ...request.clientMetadata,
    redirect_uris: [request.redirectUri],
    grant_types: listAllows(metadata.grant_types_supported, "refresh_token") ? ["authorization_code", "refresh_token"] : ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: requestedMethod(metadata),
  };
  const result = await postJson(request.http, endpoint, body, OAuthFaultCode.RegistrationFailed, request.signal);
  const answer = (typeof result.json === "object" && result.json !== null ? result.json : {}) as Record<string, unknown>;
  if (!result.ok) {
    const reason = typeof answer.error === "string" ? `${answer.error} ${String(answer.error_description ?? "")}`.trim() : `HTTP ${result.status}`;
    throw new OAuthError(OAuthFaultCode.RegistrationFailed, `Dynamic client registration at ${endpoint.href} was refused (${reason}).`, {
      detail: { status: result.status, error: answer.error },
    });
  }
  if (typeof answer.client_id !== "string" || answer.client_id === "") {
    throw new OAuthError(OAuthFaultCode.RegistrationFailed, `The registration response of ${endpoint.href} has no client_id.`);
  }
  const method = isTokenEndpointAuthMethod(answer.token_endpoint_auth_method) ? answer.token_endpoint_auth_method : undefined;
  return {
    clientId: answer.client_id,
    ...(typeof answer.client_secret === "string" ? { clientSecret: answer.client_secret } : {}),
    ...(typeof answer.client_secret_expires_at === "number" ? { clientSecretExpiresAt: answer.client_secret_expires_at } : {}),
    ...(method === undefined ? {} : { tokenEndpointAuthMethod: method }),
    redirectUris: [request.redirectUri],
  };
}
