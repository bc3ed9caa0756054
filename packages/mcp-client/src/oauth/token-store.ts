/**
 * Where the provider keeps what outlives a process: tokens per MCP server and dynamic client
 * registrations per authorization server (MCP 2025-11-25: registration state is kept per
 * authorization server). The in-memory store lives here; the file store is Node-only
 * (`@proto/mcp-client/oauth/node`).
 */
import { isTokenEndpointAuthMethod, type TokenEndpointAuthMethod } from "./client-auth";
import type { TokenSet } from "./token-endpoint";

/** Tokens with what is needed to refresh them after a restart. */
export interface StoredTokens extends TokenSet {
  /** The authorization server that issued them. */
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** The `resource` they were requested for (RFC 8707). */
  readonly resource: string;
  readonly clientId: string;
  /** How the client authenticated when it got them (reused to refresh). */
  readonly authMethod: TokenEndpointAuthMethod;
  /** When they were obtained, in milliseconds since the epoch. */
  readonly issuedAt?: number;
  /** The RFC 7009 revocation endpoint of the issuer, when it has one (used by `clear({ revoke: true })`). */
  readonly revocationEndpoint?: string;
  /** For a `DPoP` token: the RFC 7638 thumbprint of the key it is bound to (tokens bound to another key are not used). */
  readonly dpopJkt?: string;
}

/** A dynamic client registration (RFC 7591 §3.2.1). */
export interface StoredClient {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Seconds since the epoch; 0 or absent: never expires. */
  readonly clientSecretExpiresAt?: number;
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  readonly redirectUris: readonly string[];
}

/** Everything stored for one MCP server. */
export interface StoredAuthorization {
  readonly tokens?: StoredTokens;
  /** Registrations by issuer identifier. */
  readonly clients?: Readonly<Record<string, StoredClient>>;
}

/**
 * Persistence for the provider. Keys are the canonical MCP server URIs (or the `storeKey`
 * option). Implementations must keep values private: they hold bearer and refresh tokens.
 */
export interface TokenStore {
  load(key: string): Promise<StoredAuthorization | undefined>;
  save(key: string, value: StoredAuthorization): Promise<void>;
  delete(key: string): Promise<void>;
}

/** A store in process memory (the default): nothing survives a restart. Values are copied in and out. */
export function createMemoryTokenStore(): TokenStore {
  const entries = new Map<string, StoredAuthorization>();
  return {
    load: (key) => Promise.resolve(clone(entries.get(key))),
    save: (key, value) => {
      entries.set(key, clone(value) as StoredAuthorization);
      return Promise.resolve();
    },
    delete: (key) => {
      entries.delete(key);
      return Promise.resolve();
    },
  };
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Validates a stored value read back from disk; returns undefined for anything malformed. */
export function parseStoredAuthorization(value: unknown): StoredAuthorization | undefined {
  if (!isRecord(value)) return undefined;
  const tokens = parseTokens(value.tokens);
  const clients: Record<string, StoredClient> = {};
  if (isRecord(value.clients)) {
    for (const [issuer, client] of Object.entries(value.clients)) {
      const parsed = parseClient(client);
      if (parsed !== undefined) clients[issuer] = parsed;
    }
  }
  return { ...(tokens === undefined ? {} : { tokens }), ...(Object.keys(clients).length === 0 ? {} : { clients }) };
}

function parseTokens(value: unknown): StoredTokens | undefined {
  if (!isRecord(value)) return undefined;
  const strings = ["accessToken", "issuer", "tokenEndpoint", "resource", "clientId"] as const;
  if (!strings.every((name) => typeof value[name] === "string") || (value.tokenType !== "Bearer" && value.tokenType !== "DPoP")) return undefined;
  if (!isTokenEndpointAuthMethod(value.authMethod)) return undefined;
  if (value.expiresAt !== undefined && typeof value.expiresAt !== "number") return undefined;
  if (value.issuedAt !== undefined && typeof value.issuedAt !== "number") return undefined;
  if (value.revocationEndpoint !== undefined && typeof value.revocationEndpoint !== "string") return undefined;
  if (value.refreshToken !== undefined && typeof value.refreshToken !== "string") return undefined;
  if (value.scope !== undefined && typeof value.scope !== "string") return undefined;
  if (value.tokenType === "DPoP" && typeof value.dpopJkt !== "string") return undefined;
  return value as unknown as StoredTokens;
}

function parseClient(value: unknown): StoredClient | undefined {
  if (!isRecord(value) || typeof value.clientId !== "string") return undefined;
  if (!Array.isArray(value.redirectUris) || !value.redirectUris.every((uri) => typeof uri === "string")) return undefined;
  if (value.clientSecret !== undefined && typeof value.clientSecret !== "string") return undefined;
  if (value.clientSecretExpiresAt !== undefined && typeof value.clientSecretExpiresAt !== "number") return undefined;
  if (value.tokenEndpointAuthMethod !== undefined && !isTokenEndpointAuthMethod(value.tokenEndpointAuthMethod)) return undefined;
  return value as unknown as StoredClient;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
