/**
 * The seams of a multi-instance deployment (many handlers behind a load balancer, one shared
 * store): a `SessionStore` keeps 2025-11-25 session records so any instance serves any request of
 * any session, and a `MessageBus` carries what must reach another instance (server-initiated
 * messages to the instance holding a session's GET stream, client responses to the instance
 * whose handler waits for them, saved session state, deletion). Without the handler's `shared`
 * option none of this is used: sessions live in the handler's process, as before.
 */
import type { JsonRpcRequest, Principal } from "@proto/jsonrpc";
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
  /**
   * The fair-share group `evictOne` counts the session in: the principal key, or for anonymous
   * callers their address group (IPv4 address, IPv6 /64), as one handler groups them. Default `principalKey`.
   */
  readonly holder?: string;
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
  /**
   * Replaces the record's `protocolVersion`, `state` and `topics` (what the session listens to:
   * `members` finds it by them). A record that expired stays gone.
   */
  update(id: string, patch: { readonly protocolVersion?: string; readonly state?: unknown; readonly topics?: readonly string[] }): MaybePromise<void>;
  /** Removes the record (DELETE) and its topics. */
  delete(id: string): MaybePromise<void>;
  /** The live sessions whose last `update` named `topic`, with their stream prefixes (at most `limit`). */
  members(topic: string, limit: number): MaybePromise<readonly SessionMember[]>;
  /**
   * Makes room at `maxSessions` by fair share, atomically across instances: removes (as `delete`
   * does) the least recently touched live record of the holder with the most live records (ties:
   * the holder whose oldest record is oldest) and resolves with its id; undefined when none is
   * live. The handler calls it when `create` answered "full" and `evictWhenFull` is on, tells the
   * session's replicas on the bus, then retries `create` once. Without it, "full" is a 503.
   */
  evictOne?(): MaybePromise<string | undefined>;
}

/** A session found by topic: where its server-initiated messages go. */
export interface SessionMember {
  readonly id: string;
  readonly streamPrefix: string;
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
  /**
   * Deployment-wide dedupe of a change every instance may report: records `version` as the last
   * one of `topic` and resolves true when it differs from the one recorded before (so exactly one
   * instance announces each version). Without it, every report is announced.
   */
  announce?(topic: string, version: string): MaybePromise<boolean>;
}

/** One request in flight on an instance, as the journal keeps it (plain JSON). */
export interface JournalEntry {
  readonly sessionId: string;
  /** The POST stream its answer goes on (the client resumes it with `Last-Event-ID`). */
  readonly streamId: string;
  readonly request: JsonRpcRequest;
  /** Who sent it (without the raw token, which is never stored). */
  readonly principal?: Omit<Principal, "token">;
  /** Ids of the server-to-client requests it sent that are still unanswered. */
  readonly outbound: readonly string[];
  /** How many instances already ran it (a takeover re-runs it at most once). */
  readonly attempts: number;
}

/**
 * Where instances journal the requests they execute, under a lease each renews (heartbeat), so
 * a surviving instance takes over the requests of one that died: it answers each exactly once.
 * Every method may reject when the store is unreachable (the journal is then best effort).
 */
export interface RequestJournal {
  /** Records `entry` as executing on `instance` (replacing an entry of the same stream). */
  begin(instance: string, entry: JournalEntry): MaybePromise<void>;
  /** Adds a server-to-client request id to the entry of `streamId`. */
  outbound(instance: string, streamId: string, requestId: string): MaybePromise<void>;
  /** The request of `streamId` is answered (or abandoned): forgets it. */
  end(instance: string, streamId: string): MaybePromise<void>;
  /** Renews `instance`'s lease for `ttlMs`. */
  heartbeat(instance: string, ttlMs: number): MaybePromise<void>;
  /** Atomically claims every entry of instances (other than `instance`) whose lease expired; each entry is claimed once. */
  takeOver(instance: string): MaybePromise<readonly JournalEntry[]>;
}

/** The handler's `shared` option: what its instances share. */
export interface SharedSessionOptions {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  /** `Retry-After` (seconds) sent with the 503 that answers a request while the store is unreachable. Default 1. */
  readonly retryAfterSeconds?: number;
  /**
   * Journals the requests this instance executes so a survivor answers them when it dies (see
   * `repeatable`). Needs an `eventStore` with `end`. Default: none (a dead instance's requests are lost).
   */
  readonly journal?: RequestJournal;
  /**
   * Whether a request orphaned by a dead instance may run again on a survivor (its tool is safe
   * to repeat: `server.repeatable` of `@proto/mcp-server`). Otherwise the survivor answers it with
   * -32603 and `data: { reason: "instance_lost", retryable }`. Default: nothing runs again.
   */
  readonly repeatable?: (request: JsonRpcRequest) => boolean;
  /** How long an instance's lease lasts without a heartbeat (ms); heartbeats go every third of it. Default 3,000. */
  readonly leaseMs?: number;
}
