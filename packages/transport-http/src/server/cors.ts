/**
 * CORS, off unless configured: no `Access-Control-*` header is ever sent without a `cors`
 * option. Preflights are answered for the configured origins only.
 */
import type { OutHeaders } from "./io";

/** Browser access to the endpoint. */
export interface CorsOptions {
  /** Origins allowed to call the endpoint from a browser, or `*` for any (Host/Origin checks still apply). */
  readonly origins: readonly string[] | "*";
  /** How long browsers may cache a preflight answer, in seconds. Default 600. */
  readonly maxAgeSeconds?: number;
}

const ALLOW_HEADERS = "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id";
const EXPOSE_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";

function allowedOrigin(options: CorsOptions, origin: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  if (options.origins === "*") return "*";
  return options.origins.includes(origin) ? origin : undefined;
}

/** No CORS headers: one object for every request (answers spread it or send it as is; nothing writes to it). */
const NONE: OutHeaders = {};

/** Headers to add to an actual response for this Origin (empty when CORS is off or the origin is not allowed). */
export function corsHeaders(options: CorsOptions | undefined, origin: string | undefined): OutHeaders {
  if (!options) return NONE;
  const allow = allowedOrigin(options, origin);
  if (allow === undefined) return NONE;
  const headers: OutHeaders = { "access-control-allow-origin": allow, "access-control-expose-headers": EXPOSE_HEADERS };
  if (allow !== "*") headers.vary = "origin";
  return headers;
}

/** Headers answering a preflight, or undefined when the origin is not allowed. */
export function preflightHeaders(options: CorsOptions, origin: string | undefined): OutHeaders | undefined {
  const allow = allowedOrigin(options, origin);
  if (allow === undefined) return undefined;
  return {
    ...corsHeaders(options, origin),
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": ALLOW_HEADERS,
    "access-control-max-age": String(options.maxAgeSeconds ?? 600),
  };
}

/** The explicit origins of a CORS option (for the default Origin rule off loopback). */
export function corsOriginList(options: CorsOptions | undefined): readonly string[] {
  return options && options.origins !== "*" ? options.origins : [];
}
