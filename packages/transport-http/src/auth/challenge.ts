/**
 * `WWW-Authenticate: Bearer ...` challenges (RFC 6750 section 3, RFC 9728 section 5.1): what a
 * 401 or a 403 `insufficient_scope` tells the client to do next.
 */

/** Parameters of a Bearer challenge. */
export interface BearerChallenge {
  /** The protected resource metadata URL (RFC 9728). */
  readonly resourceMetadata?: string;
  /** `invalid_request`, `invalid_token` or `insufficient_scope` (RFC 6750 section 3.1). */
  readonly error?: string;
  /** A short human-readable explanation. */
  readonly errorDescription?: string;
  /** The scopes the request needs. */
  readonly scopes?: readonly string[];
}

function quoted(value: string): string {
  // quoted-string (RFC 9110 section 5.6.4): escape backslash and quote; drop control characters
  return `"${value.replace(/[\u0000-\u001f\u007f]/g, "").replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** Formats a `WWW-Authenticate` value with the Bearer scheme. */
export function bearerChallenge(challenge: BearerChallenge): string {
  const params: string[] = [];
  if (challenge.error !== undefined) params.push(`error=${quoted(challenge.error)}`);
  if (challenge.scopes && challenge.scopes.length > 0) params.push(`scope=${quoted(challenge.scopes.join(" "))}`);
  if (challenge.resourceMetadata !== undefined) params.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
  if (challenge.errorDescription !== undefined) params.push(`error_description=${quoted(challenge.errorDescription)}`);
  return params.length === 0 ? "Bearer" : `Bearer ${params.join(", ")}`;
}
