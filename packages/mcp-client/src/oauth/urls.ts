/**
 * URL rules of MCP authorization: https everywhere but loopback, the canonical resource URI
 * (RFC 8707 §2), the resource match of RFC 9728 §3.3, and the well-known URLs of RFC 9728
 * §3.1 and RFC 8414 §3.1 in the order the MCP 2025-11-25 authorization spec gives.
 */
import { OAuthError, OAuthFaultCode } from "./errors";

/** True for `localhost`, 127.0.0.0/8 and ::1: the hosts OAuth 2.1 §1.5 lets use plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Parses `value` as an absolute URL or throws `INVALID_METADATA` naming `what`. */
export function parseUrl(value: unknown, what: string): URL {
  if (typeof value !== "string" && !(value instanceof URL)) {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `${what} is missing or not a string.`);
  }
  try {
    return new URL(value);
  } catch (cause) {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `${what} is not an absolute URL: ${String(value).slice(0, 200)}`, { cause });
  }
}

/**
 * Refuses a URL that is neither https nor http on a loopback host (OAuth 2.1 §1.5; MCP
 * "Communication Security"). `allowInsecure` is the documented escape hatch for lab setups.
 */
export function assertSecureUrl(url: URL, what: string, allowInsecure = false): void {
  if (url.protocol === "https:") return;
  if (url.protocol === "http:" && (allowInsecure || isLoopbackHost(url.hostname))) return;
  throw new OAuthError(
    OAuthFaultCode.InsecureEndpoint,
    `Refusing ${what} ${url.href}: OAuth endpoints must use https (plain http is only allowed on localhost/127.0.0.1/[::1]).`,
    { detail: { url: url.href } },
  );
}

/**
 * The canonical URI of an MCP server (RFC 8707 §2, MCP "Canonical Server URI"): lowercase
 * scheme and host (the URL parser does that), no fragment, no trailing slash on a bare origin.
 */
export function canonicalResource(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = "";
  if (copy.pathname === "/" && copy.search === "") return copy.origin;
  return copy.href;
}

/**
 * True when the Protected Resource Metadata `resource` identifies the server at `server`:
 * same origin, and its path is the server's path or a parent of it on a segment boundary
 * (metadata served at the root names the whole origin).
 */
export function resourceMatches(resource: string, server: URL): boolean {
  let named: URL;
  try {
    named = new URL(resource);
  } catch {
    return false;
  }
  if (named.origin !== server.origin || named.hash !== "") return false;
  const trim = (path: string): string => path.replace(/\/+$/, "");
  const parent = trim(named.pathname);
  const child = trim(server.pathname);
  if (named.search !== "" && (named.search !== server.search || parent !== child)) return false;
  return parent === "" || child === parent || child.startsWith(`${parent}/`);
}

/** The RFC 9728 §3.1 well-known URLs for `server`: path-based first (when there is a path), then the root. */
export function protectedResourceMetadataUrls(server: URL): URL[] {
  const base = "/.well-known/oauth-protected-resource";
  const path = server.pathname.replace(/\/+$/, "");
  const urls: URL[] = [];
  if (path !== "" || server.search !== "") urls.push(new URL(`${base}${path}${server.search}`, server.origin));
  urls.push(new URL(base, server.origin));
  return urls;
}

/**
 * Where to look for an issuer's metadata, in the MCP 2025-11-25 order: with a path, RFC 8414
 * path insertion, then OpenID Connect path insertion, then OpenID Connect path appending;
 * without a path, RFC 8414 then OpenID Connect. Each URL is tagged with its kind.
 */
export function authorizationServerMetadataUrls(issuer: URL): { url: URL; kind: "oauth" | "openid" }[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  const origin = issuer.origin;
  if (path === "") {
    return [
      { url: new URL("/.well-known/oauth-authorization-server", origin), kind: "oauth" },
      { url: new URL("/.well-known/openid-configuration", origin), kind: "openid" },
    ];
  }
  return [
    { url: new URL(`/.well-known/oauth-authorization-server${path}`, origin), kind: "oauth" },
    { url: new URL(`/.well-known/openid-configuration${path}`, origin), kind: "openid" },
    { url: new URL(`${path}/.well-known/openid-configuration`, origin), kind: "openid" },
  ];
}

/** True when two issuer identifiers are the same, a single terminating slash aside. */
export function sameIssuer(a: string, b: string): boolean {
  const trim = (value: string): string => (value.endsWith("/") ? value.slice(0, -1) : value);
  return trim(a) === trim(b);
}
