/**
 * The metadata documents of MCP authorization, as they travel (snake_case members), and
 * their validation: Protected Resource Metadata (RFC 9728 §2) and Authorization Server
 * Metadata (RFC 8414 §2, which OpenID Connect Discovery 1.0 documents also satisfy).
 */
import { OAuthError, OAuthFaultCode } from "./errors";

/** A Protected Resource Metadata document (RFC 9728 §2); unknown members are kept. */
export interface ProtectedResourceMetadata {
  /** The protected resource's identifier: it must name the MCP server we talk to. */
  readonly resource: string;
  /** Issuer identifiers of the authorization servers that protect the resource. */
  readonly authorization_servers?: readonly string[];
  /** The scopes needed for basic functionality (MCP "Scope Selection Strategy"). */
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported?: readonly string[];
  readonly resource_name?: string;
  readonly [member: string]: unknown;
}

/** Authorization Server Metadata (RFC 8414 §2 and the MCP additions); unknown members are kept. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly authorization_endpoint?: string;
  readonly token_endpoint: string;
  readonly registration_endpoint?: string;
  /** RFC 7009 token revocation. */
  readonly revocation_endpoint?: string;
  readonly scopes_supported?: readonly string[];
  readonly response_types_supported?: readonly string[];
  readonly grant_types_supported?: readonly string[];
  readonly token_endpoint_auth_methods_supported?: readonly string[];
  readonly token_endpoint_auth_signing_alg_values_supported?: readonly string[];
  readonly code_challenge_methods_supported?: readonly string[];
  /** Client ID Metadata Documents are accepted as `client_id` (MCP 2025-11-25). */
  readonly client_id_metadata_document_supported?: boolean;
  /** The authorization response carries `iss` (RFC 9207). */
  readonly authorization_response_iss_parameter_supported?: boolean;
  readonly [member: string]: unknown;
}

const PRM_ARRAYS = ["authorization_servers", "scopes_supported", "bearer_methods_supported"] as const;
const AS_ARRAYS = [
  "scopes_supported",
  "response_types_supported",
  "grant_types_supported",
  "token_endpoint_auth_methods_supported",
  "token_endpoint_auth_signing_alg_values_supported",
  "code_challenge_methods_supported",
] as const;

/** Validates a Protected Resource Metadata document fetched from `source`. */
export function parseProtectedResourceMetadata(value: unknown, source: string): ProtectedResourceMetadata {
  const doc = requireObject(value, `The Protected Resource Metadata at ${source}`);
  requireString(doc, "resource", source);
  for (const member of PRM_ARRAYS) requireStringArray(doc, member, source);
  return doc as ProtectedResourceMetadata;
}

/** Validates an Authorization Server Metadata (or OpenID Provider) document fetched from `source`. */
export function parseAuthorizationServerMetadata(value: unknown, source: string): AuthorizationServerMetadata {
  const doc = requireObject(value, `The authorization server metadata at ${source}`);
  requireString(doc, "issuer", source);
  requireString(doc, "token_endpoint", source);
  for (const member of ["authorization_endpoint", "registration_endpoint", "revocation_endpoint"]) {
    if (doc[member] !== undefined) requireString(doc, member, source);
  }
  for (const member of AS_ARRAYS) requireStringArray(doc, member, source);
  return doc as AuthorizationServerMetadata;
}

function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `${what} is not a JSON object.`);
  }
  return value as Record<string, unknown>;
}

function requireString(doc: Record<string, unknown>, member: string, source: string): void {
  const value = doc[member];
  if (typeof value !== "string" || value === "") {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `The metadata at ${source} has no "${member}" string (required).`);
  }
}

function requireStringArray(doc: Record<string, unknown>, member: string, source: string): void {
  const value = doc[member];
  if (value === undefined) return;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new OAuthError(OAuthFaultCode.InvalidMetadata, `The metadata at ${source} has "${member}" that is not an array of strings.`);
  }
}

/** True when the optional list `values` is absent or contains `wanted` (RFC 8414 defaults aside). */
export function listAllows(values: readonly string[] | undefined, wanted: string): boolean {
  return values === undefined || values.includes(wanted);
}
