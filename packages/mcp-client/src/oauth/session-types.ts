/**
 * The types of the OAuth session engine (`session.ts`): what differs between the user flow and the
 * machine flow, the settings of one session, and what the HTTP transport reports of a refusal.
 */
import type { Logger } from "@proto/jsonrpc";
import type { ClientIdentity, KeyCache } from "./client-auth";
import type { Discovery } from "./discovery";
import type { DpopProver } from "./dpop";
import type { GrantResult } from "./grants";
import type { HttpSettings } from "./http";
import type { SessionState } from "./session-state";
import type { StoredAuthorization, StoredClient, TokenStore } from "./token-store";

/** What differs between the user flow and the machine flow. */
export interface GrantStrategy {
  /** Obtains tokens from the discovered server for `scope`. */
  obtain(discovery: Discovery, scope: string | undefined, session: SessionAccess, signal?: AbortSignal): Promise<GrantResult>;
  /** The identity that obtained tokens for `clientId`, to refresh them. */
  identityFor(clientId: string, issuer: string, state: StoredAuthorization | undefined): ClientIdentity;
  /** Ask for `offline_access` when the server lists it. */
  readonly offlineAccess: boolean;
}

/** What a strategy may read and write while it runs. */
export interface SessionAccess {
  /** What is stored for this server. */
  readonly value: StoredAuthorization | undefined;
  saveRegistration(issuer: string, client: StoredClient): Promise<void>;
}

/** Settings of one session. */
export interface SessionSettings {
  readonly server: URL;
  readonly http: HttpSettings;
  readonly store: TokenStore;
  readonly storeKey: string;
  readonly scope: string | undefined;
  readonly refreshBeforeExpiryMs: number;
  readonly maxAttempts: number;
  readonly attemptWindowMs: number;
  readonly selectIssuer?: (issuers: readonly string[]) => string;
  readonly now: () => number;
  readonly logger?: Logger;
  readonly keys: KeyCache;
  /** Proof of possession (RFC 9449) for every token request, when the provider has the `dpop` option. */
  readonly dpop?: DpopProver;
}

/** What the HTTP transport tells the provider about a refusal (the `HttpAuth` contract). */
export interface UnauthorizedContext {
  readonly status: 401 | 403;
  /** The raw `WWW-Authenticate` header. */
  readonly challenge: string | undefined;
  readonly url: URL;
  readonly signal?: AbortSignal;
}

/** What the flows of a session share (`session-flows.ts`, `revoke.ts`). */
export interface Engine {
  readonly settings: SessionSettings;
  readonly strategy: GrantStrategy;
  readonly state: SessionState;
}
