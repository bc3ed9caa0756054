/**
 * DNS rebinding protection (MCP 2025-11-25 transports, "Security Warning"; CVE-2025-66414):
 * on a loopback bind the Host and Origin headers must name loopback, fail-closed. A runtime that
 * does not report its local address is treated as loopback.
 */

/** Which Host and Origin values a handler accepts. */
export interface HostCheckOptions {
  /**
   * Accepted `Host` values: `name` accepts any port, `name:port` only that port. When set, it is
   * enforced on every bind. Default: on loopback binds, `localhost`, `127.0.0.1` (any 127/8) and
   * `[::1]`; elsewhere, any Host.
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
  /** Loopback bind (or unknown: fail-closed). */
  readonly loopback: boolean;
}

/**
 * Checks Host and Origin. Returns undefined when the request may proceed, else the reason for a
 * 403. `corsOrigins` are origins the CORS option allows (they pass the default Origin rule off
 * loopback; `*` never widens it).
 */
export function checkHostAndOrigin(input: GuardInput, options: HostCheckOptions, corsOrigins: readonly string[]): string | undefined {
  const host = input.host === undefined ? undefined : splitHost(input.host);
  if (options.allowedHosts || input.loopback) {
    if (!host) return "the Host header is missing or malformed";
    const ok = options.allowedHosts ? hostAllowed(host, options.allowedHosts) : isLoopbackName(host.hostname);
    if (!ok) return `Host ${host.hostname} is not allowed; add it to hostCheck.allowedHosts if this server is meant to be reached by that name`;
  }
  if (input.origin === undefined) return undefined;
  if (input.origin.trim().toLowerCase() === "null") return "Origin null is refused";
  const origin = normalizeOrigin(input.origin);
  if (!origin) return "the Origin header is not a valid origin";
  if (options.allowedOrigins) {
    const allowed = options.allowedOrigins.some((entry) => normalizeOrigin(entry) === origin) || corsOrigins.some((entry) => normalizeOrigin(entry) === origin);
    return allowed ? undefined : `Origin ${origin} is not allowed; add it to hostCheck.allowedOrigins`;
  }
  const url = new URL(origin);
  if (input.loopback) {
    const ok = (url.protocol === "http:" || url.protocol === "https:") && isLoopbackName(url.hostname.toLowerCase());
    return ok ? undefined : `Origin ${origin} is not a loopback origin; add it to hostCheck.allowedOrigins if this server is meant to be called from it`;
  }
  if (host && url.host.toLowerCase() === (host.port ? `${host.hostname}:${host.port}` : host.hostname)) return undefined;
  if (corsOrigins.some((entry) => normalizeOrigin(entry) === origin)) return undefined;
  return `Origin ${origin} is not allowed; configure cors.origins or hostCheck.allowedOrigins`;
}
