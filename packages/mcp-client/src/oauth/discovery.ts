/**
 * Finds the authorization server of an MCP server (MCP 2025-11-25 "Authorization Server
 * Discovery"): Protected Resource Metadata from the `resource_metadata` of the challenge, else
 * from the RFC 9728 well-known URLs (path-based, then root); then the issuer's metadata in the
 * RFC 8414 / OpenID Connect order. A server without Protected Resource Metadata is a
 * 2025-03-26 server: its origin's RFC 8414 metadata, else the default endpoints.
 */
import type { Logger } from "@proto/jsonrpc";
import { OAuthError, OAuthFaultCode } from "./errors";
import { getJson, type HttpSettings } from "./http";
import {
  type AuthorizationServerMetadata,
  parseAuthorizationServerMetadata,
  parseProtectedResourceMetadata,
  type ProtectedResourceMetadata,
} from "./metadata";
import {
  assertSecureUrl,
  authorizationServerMetadataUrls,
  canonicalResource,
  parseUrl,
  protectedResourceMetadataUrls,
  resourceMatches,
  sameIssuer,
} from "./urls";

/** Where an authorization server's metadata came from. */
export type DiscoverySource = "protected-resource" | "legacy-metadata" | "legacy-defaults";

/** What discovery found: the resource to ask a token for and the authorization server to ask. */
export interface Discovery {
  /** The `resource` parameter (RFC 8707): the metadata's `resource`, else the canonical server URI. */
  readonly resource: string;
  readonly issuer: string;
  readonly metadata: AuthorizationServerMetadata;
  readonly source: DiscoverySource;
  /** The Protected Resource Metadata, absent for a 2025-03-26 server. */
  readonly resourceMetadata?: ProtectedResourceMetadata;
  /** Where the Protected Resource Metadata was read. */
  readonly resourceMetadataUrl?: string;
}

/** Inputs of one discovery. */
export interface DiscoveryRequest {
  readonly http: HttpSettings;
  readonly server: URL;
  /** `resource_metadata` from the challenge, when there was one. */
  readonly resourceMetadataUrl?: string;
  /** Picks one issuer of `authorization_servers` (default: the first). */
  readonly selectIssuer?: (issuers: readonly string[]) => string;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

/** Runs discovery; throws an `OAuthError` for every refusal (mismatch, insecure URL, bad document). */
export async function discover(request: DiscoveryRequest): Promise<Discovery> {
  const found = await findProtectedResource(request);
  if (found === undefined) return discoverLegacy(request);
  const { document, url } = found;
  if (!resourceMatches(document.resource, request.server)) {
    throw new OAuthError(
      OAuthFaultCode.ResourceMismatch,
      `The Protected Resource Metadata at ${url} is for "${document.resource}", not for ${request.server.href}; refusing to authorize for another resource.`,
      { detail: { resource: document.resource, server: request.server.href } },
    );
  }
  const issuers = document.authorization_servers ?? [];
  if (issuers.length === 0) {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `The Protected Resource Metadata at ${url} lists no authorization_servers.`);
  }
  const issuer = request.selectIssuer?.(issuers) ?? (issuers[0] as string);
  if (!issuers.includes(issuer)) throw new TypeError(`selectIssuer returned "${issuer}", which is not one of ${issuers.join(", ")}.`);
  const metadata = await fetchIssuerMetadata(request, issuer);
  return { resource: document.resource, issuer, metadata, source: "protected-resource", resourceMetadata: document, resourceMetadataUrl: url };
}

async function findProtectedResource(request: DiscoveryRequest): Promise<{ document: ProtectedResourceMetadata; url: string } | undefined> {
  const candidates = protectedResourceMetadataUrls(request.server);
  if (request.resourceMetadataUrl !== undefined) {
    const named = parseUrl(request.resourceMetadataUrl, "The resource_metadata URL of the WWW-Authenticate challenge");
    if (named.origin !== request.server.origin) assertSecureUrl(named, "the Protected Resource Metadata URL", request.http.allowInsecureHttp);
    candidates.unshift(named);
  }
  for (const url of candidates) {
    const result = await getJson(request.http, url, OAuthFaultCode.DiscoveryFailed, request.signal);
    if (result.ok) return { document: parseProtectedResourceMetadata(result.json, url.href), url: url.href };
    request.logger?.warn(`No Protected Resource Metadata at ${url.href} (HTTP ${result.status}); trying the next location.`);
  }
  return undefined;
}

/** Fetches an issuer's metadata in the MCP 2025-11-25 order and checks its `issuer` (RFC 8414 §3.3). */
export async function fetchIssuerMetadata(request: DiscoveryRequest, issuer: string): Promise<AuthorizationServerMetadata> {
  const issuerUrl = parseUrl(issuer, "The authorization server issuer");
  if (issuerUrl.search !== "" || issuerUrl.hash !== "") {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `The issuer ${issuer} has a query or fragment, which RFC 8414 §2 forbids.`);
  }
  assertSecureUrl(issuerUrl, "the authorization server", request.http.allowInsecureHttp);
  const statuses: string[] = [];
  for (const { url } of authorizationServerMetadataUrls(issuerUrl)) {
    const result = await getJson(request.http, url, OAuthFaultCode.DiscoveryFailed, request.signal);
    if (!result.ok) {
      statuses.push(`${url.href}: HTTP ${result.status}`);
      continue;
    }
    const metadata = parseAuthorizationServerMetadata(result.json, url.href);
    if (!sameIssuer(metadata.issuer, issuer)) {
      throw new OAuthError(
        OAuthFaultCode.IssuerMismatch,
        `The metadata at ${url.href} names issuer "${metadata.issuer}", not "${issuer}" (RFC 8414 §3.3); refusing it as a possible mix-up attack.`,
        { detail: { expected: issuer, actual: metadata.issuer } },
      );
    }
    assertEndpointsSecure(metadata, request.http.allowInsecureHttp);
    return metadata;
  }
  throw new OAuthError(OAuthFaultCode.DiscoveryFailed, `No authorization server metadata found for ${issuer} (${statuses.join("; ")}).`, {
    detail: { issuer, tried: statuses },
  });
}

async function discoverLegacy(request: DiscoveryRequest): Promise<Discovery> {
  const base = new URL(request.server.origin);
  assertSecureUrl(base, "the authorization base URL", request.http.allowInsecureHttp);
  const resource = canonicalResource(request.server);
  const url = new URL("/.well-known/oauth-authorization-server", base);
  const result = await getJson(request.http, url, OAuthFaultCode.DiscoveryFailed, request.signal);
  if (result.ok) {
    // A 2025-03-26 server has no issuer identifier to compare with: the base URL is derived, not named.
    const metadata = parseAuthorizationServerMetadata(result.json, url.href);
    assertEndpointsSecure(metadata, request.http.allowInsecureHttp);
    return { resource, issuer: metadata.issuer, metadata, source: "legacy-metadata" };
  }
  request.logger?.warn(`No OAuth metadata at ${url.href} (HTTP ${result.status}); using the 2025-03-26 default endpoints.`);
  const metadata: AuthorizationServerMetadata = {
    issuer: base.origin,
    authorization_endpoint: new URL("/authorize", base).href,
    token_endpoint: new URL("/token", base).href,
    registration_endpoint: new URL("/register", base).href,
    response_types_supported: ["code"],
    // The 2025-03-26 revision makes PKCE mandatory, so a server without metadata supports S256.
    code_challenge_methods_supported: ["S256"],
  };
  return { resource, issuer: base.origin, metadata, source: "legacy-defaults" };
}

function assertEndpointsSecure(metadata: AuthorizationServerMetadata, allowInsecure: boolean): void {
  const endpoints = ["authorization_endpoint", "token_endpoint", "registration_endpoint", "revocation_endpoint"] as const;
  for (const name of endpoints) {
    const value = metadata[name];
    if (value !== undefined) assertSecureUrl(parseUrl(value, `The ${name}`), `the ${name.replace("_", " ")}`, allowInsecure);
  }
}
