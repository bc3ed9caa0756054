/**
 * DNS rebinding protection (MCP 2025-11-25 transports, "Security Warning"; CVE-2025-66414):
 * on a loopback bind the Host and Origin headers must name loopback, fail-closed. A runtime that
 * does not report its local address is treated as loopback. Off loopback with no `allowedHosts`
 * (a bind on `0.0.0.0` or `::` reached through another interface), `Host` must be the address
 * the connection arrived on: a rebinding page's Host is its own DNS name, so it is refused, and
 * a server meant to be reached by name lists it in `allowedHosts` (a warning at start says so).
 */

/** Which Host and Origin values a handler accepts. */
export interface HostCheckOptions {
  /**
   * Accepted `Host` values: `name` accepts any port, `name:port` only that port. When set, it is
   * enforced on every bind. Default: on loopback binds, `localhost`, `127.0.0.1` (any 127/8) and
   * `[::1]`; elsewhere, the IP literal of the local address the connection arrived on (so a
   * server reached by a DNS name must list it here).
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Accepted `Origin` values (`scheme://host[:port]`). When set, it is enforced on every bind.
   * Default: on loopback binds, http(s) origins whose host is loopback; elsewhere, the request's
   * own Host (same origin) and the CORS origins. `Origin: null` and unparseable origins are
   * always refused.
   */
  readonly allowedOrigins?: readonly string[];
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopbackAddress(address: string): boolean {
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

function isLoopbackName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || hostname === "::1" || isLoopbackAddress(hostname);
}

/** Splits a Host value into lower-case hostname (IPv6 kept in brackets) and port. */
function splitHost(host: string): { hostname: string; port: string } | undefined {
  const value = host.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  return { hostname: match[1] as string, port: match[2] ?? "" };
}

function hostAllowed(host: { hostname: string; port: string }, allowed: readonly string[]): boolean {
  for (const entry of allowed) {
    const want = splitHost(entry);
    if (!want || want.hostname !== host.hostname) continue;
    if (want.port === "" || want.port === host.port) return true;
  }
  return false;
}

function normalizeOrigin(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.origin === "null" ? undefined : url.origin;
  } catch {
    return undefined;
  }
}

/** What the check needs to know about one request. */
export interface GuardInput {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** The local address the connection arrived on; undefined (unknown) is treated as loopback: fail-closed. */
  readonly localAddress: string | undefined;
}

/** The Host name a local address is reached by: IPv4 (IPv4-mapped unwrapped) as is, IPv6 in brackets. */
function addressName(address: string): string {
  const plain = address.toLowerCase().startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
  return plain.includes(":") ? `[${plain.toLowerCase().split("%")[0] as string}]` : plain;
}

/** True when `address` is a wildcard bind (`0.0.0.0`, `::`): it listens on every interface. */
export function isWildcardAddress(address: string): boolean {
  return address === "0.0.0.0" || address === "::" || address === "::0" || address === "0:0:0:0:0:0:0:0";
}

/**
 * The warning for a bind that accepts connections on every interface with no `allowedHosts`, or
 * undefined when the bind is safe as configured. The handler logs it once at start.
 */
export function wildcardBindWarning(address: string, options: HostCheckOptions | false): string | undefined {
  if (!isWildcardAddress(address)) return undefined;
  if (options === false) {
    return `listening on ${address} (every interface) with hostCheck: false: no Host or Origin check protects this server from DNS rebinding; keep it behind a proxy that checks them`;
  }
  if (options.allowedHosts) return undefined;
  return `listening on ${address} (every interface) without hostCheck.allowedHosts: requests arriving off loopback are accepted only when Host is the IP address they arrived on (DNS rebinding protection); list the names clients use in hostCheck.allowedHosts`;
}

/**
 * Checks Host and Origin. Returns undefined when the request may proceed, else the reason for a
 * 403. `corsOrigins` are origins the CORS option allows (they pass the default Origin rule off
 * loopback; `*` never widens it).
 */
export function checkHostAndOrigin(input: GuardInput, options: HostCheckOptions, corsOrigins: readonly string[]): string | undefined {
  const host = input.host === undefined ? undefined : splitHost(input.host);
  const loopback = input.localAddress === undefined || isLoopbackAddress(input.localAddress);
  if (!host) return "the Host header is missing or malformed";
  const hostOk = options.allowedHosts
    ? hostAllowed(host, options.allowedHosts)
    : loopback
      ? isLoopbackName(host.hostname)
      : host.hostname === addressName(input.localAddress as string);
  if (!hostOk) return `Host ${host.hostname} is not allowed; add it to hostCheck.allowedHosts if this server is meant to be reached by that name`;
  if (input.origin === undefined) return undefined;
  if (input.origin.trim().toLowerCase() === "null") return "Origin null is refused";
  const origin = normalizeOrigin(input.origin);
  if (!origin) return "the Origin header is not a valid origin";
  if (options.allowedOrigins) {
    const allowed = options.allowedOrigins.some((entry) => normalizeOrigin(entry) === origin) || corsOrigins.some((entry) => normalizeOrigin(entry) === origin);
    return allowed ? undefined : `Origin ${origin} is not allowed; add it to hostCheck.allowedOrigins`;
  }
  const url = new URL(origin);
  if (loopback) {
    const ok = (url.protocol === "http:" || url.protocol === "https:") && isLoopbackName(url.hostname.toLowerCase());
    return ok ? undefined : `Origin ${origin} is not a loopback origin; add it to hostCheck.allowedOrigins if this server is meant to be called from it`;
  }
  if (host && url.host.toLowerCase() === (host.port ? `${host.hostname}:${host.port}` : host.hostname)) return undefined;
  if (corsOrigins.some((entry) => normalizeOrigin(entry) === origin)) return undefined;
  return `Origin ${origin} is not allowed; configure cors.origins or hostCheck.allowedOrigins`;
}
