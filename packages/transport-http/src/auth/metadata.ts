/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), which MCP servers must publish
 * (MCP 2025-11-25 basic/authorization, "Authorization Server Location"), and the URL a
 * `WWW-Authenticate` challenge points clients to.
 */

/** What the handler publishes about itself as a protected resource. */
export interface ProtectedResourceOptions {
  /** The resource identifier: the MCP endpoint's absolute URL (also the audience clients request, RFC 8707). */
  readonly resource: string;
  /** Issuer URLs of the authorization servers that mint tokens for this resource (at least one). */
  readonly authorizationServers: readonly string[];
  /** Scopes this resource understands. */
  readonly scopesSupported?: readonly string[];
  /** A human-readable name. */
  readonly resourceName?: string;
  /** A URL of human-readable documentation. */
  readonly resourceDocumentation?: string;
  /** How tokens may be presented. Default `["header"]`. */
  readonly bearerMethodsSupported?: readonly string[];
  /** Further members, published as given (RFC 9728 section 2). */
  readonly extra?: { readonly [key: string]: unknown };
}

const WELL_KNOWN = "/.well-known/oauth-protected-resource";

function parseResource(resource: string): URL {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    throw new TypeError(`protectedResource.resource must be an absolute URL, got ${JSON.stringify(resource)}`);
  }
  if (url.hash !== "") throw new TypeError("protectedResource.resource must not have a fragment (RFC 9728 section 1.2)");
  return url;
}

/**
 * The metadata URL of a resource (RFC 9728 section 3.1): the well-known path inserted between the
 * host and the resource's path, e.g. `https://x.com/mcp` → `https://x.com/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = parseResource(resource);
  const path = url.pathname === "/" ? "" : url.pathname.replace(/\/$/, "");
  return `${url.origin}${WELL_KNOWN}${path}${url.search}`;
}

/** The paths the handler serves the metadata at: the path-inserted one and the root one (clients try both, in that order). */
export function protectedResourceMetadataPaths(resource: string): readonly string[] {
  const inserted = new URL(protectedResourceMetadataUrl(resource)).pathname;
  return inserted === WELL_KNOWN ? [WELL_KNOWN] : [inserted, WELL_KNOWN];
}

/** The metadata document (RFC 9728 section 2), snake_case as the RFC names its members. */
export function protectedResourceMetadata(options: ProtectedResourceOptions): { readonly [key: string]: unknown } {
  parseResource(options.resource);
  if (options.authorizationServers.length === 0) {
    throw new TypeError("protectedResource.authorizationServers needs at least one issuer URL (MCP 2025-11-25 basic/authorization)");
  }
  const document: { [key: string]: unknown } = {
    ...options.extra,
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: [...(options.bearerMethodsSupported ?? ["header"])],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceName !== undefined) document.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) document.resource_documentation = options.resourceDocumentation;
  return document;
}
