/**
 * The seams of a multi-instance deployment (many handlers behind a load balancer, one shared
 * store): a `SessionStore` keeps 2025-11-25 session records so any instance serves any request of
 * any session, and a `MessageBus` carries what must reach another instance (server-initiated
 * messages to the instance holding a session's GET stream, client responses to the instance
 * whose handler waits for them, saved session state, deletion). Without the handler's `shared`
 * option none of this is used: sessions live in the handler's process, as before.
 */
import type { MaybePromise } from "./event-store";

/** What the shared store keeps of one session. Plain JSON. */
export interface SessionRecord {
  readonly id: string;
  /** Who opened it (issuer and subject, as the handler keys principals); later requests must match. */
  readonly principalKey: string;
  /** The random prefix of the session's stream ids (ties a `Last-Event-ID` to its session on every instance). */
  readonly streamPrefix: string;
  /** The version `initialize` negotiated, once known. */
  readonly protocolVersion?: string;
  /** What the server layer saved (`ConnectContext.shared.save`): opaque to the transport. */
  readonly state?: unknown;
}

/** The caps `create` enforces across every instance, as one handler does in one process. */
export interface SessionLimits {
  /** Most sessions alive at once (`maxSessions`). */
  readonly maxSessions: number;
  /** Most live sessions of this record's principal (`maxSessionsPerPrincipal`); undefined: anonymous, not counted. */
  readonly maxSessionsPerPrincipal: number | undefined;
  /** Idle time after which a record expires (`sessionIdleTtlMs`). */
  readonly ttlMs: number;
}

/** What `create` did: stored it, or refused it because a cap is reached. */
export type SessionCreateResult = "created" | "full" | "principal-full";

/**
 * Where session records live. Every method may reject when the store is unreachable: the handler
 * then answers 503 with `Retry-After` and tries again on the next request.
 */
export interface SessionStore {
  /** Stores a new record unless `limits` refuse it (expired records do not count). */
  create(record: SessionRecord, limits: SessionLimits): MaybePromise<SessionCreateResult>;
  /** The live record with this id, its idle expiry pushed back by `ttlMs`; undefined when unknown or expired. */
  get(id: string, ttlMs: number): MaybePromise<SessionRecord | undefined>;
  /** Replaces the record's `protocolVersion` and `state`. A record that expired stays gone. */
  update(id: string, patch: { readonly protocolVersion?: string; readonly state?: unknown }): MaybePromise<void>;
  /** Removes the record (DELETE). */
  delete(id: string): MaybePromise<void>;
}

/**
 * Publish/subscribe between instances, by channel name, with strings as messages (at most once,
 * in publication order per publisher: Redis pub/sub semantics).
 */
export interface MessageBus {
  /** Publishes `message` on `channel`; resolves with how many subscribers (instances) received it. */
  publish(channel: string, message: string): MaybePromise<number>;
  /** Calls `listener` with every message published on `channel` from now on; resolves once subscribed, with the function that stops it. */
  subscribe(channel: string, listener: (message: string) => void): MaybePromise<() => MaybePromise<void>>;
}

/** The handler's `shared` option: what its instances share. */
export interface SharedSessionOptions {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  /** `Retry-After` (seconds) sent with the 503 that answers a request while the store is unreachable. Default 1. */
  readonly retryAfterSeconds?: number;
}
