/**
 * The handler side of a multi-instance deployment (option `shared`): each instance keeps a
 * replica of the sessions its requests name, rebuilt from the shared record on first use; the
 * message bus carries saved state, client responses and server-initiated messages between the
 * replicas of one session. Channels: `s:<session id>` (every replica) and `g:<session id>` (the
 * replica holding the GET stream). Nothing here runs without the option.
 */
import type { JsonRpcMessage, JsonRpcNotification, JsonRpcRequest } from "@proto/jsonrpc";
import { isRequest } from "@proto/jsonrpc";
import { HttpServerError, HttpFaultCode } from "./errors";
import { errorAnswer } from "./http-util";
import { randomHex } from "./ids";
import type { FullAnswer, OutHeaders } from "./io";
import type { SharedSessionState } from "./options";
import type { Session, SessionSharing } from "./session";
import type { EventStore } from "./event-store";
import type { MessageBus, RequestJournal, SessionRecord, SessionStore, SharedSessionOptions } from "./shared-store";

/** What the handler keeps for its `shared` option. */
export interface SharedContext {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  readonly retryAfter: string;
  /** Replicas being rebuilt, by session id: concurrent requests of one session share one restore. */
  readonly restoring: Map<string, Promise<Session | FullAnswer>>;
  /** This instance's id in the request journal (random per handler). */
  readonly instance: string;
  readonly journal: RequestJournal | undefined;
  readonly repeatable: ((request: JsonRpcRequest) => boolean) | undefined;
  readonly leaseMs: number;
}

/** The handler's context of its `shared` option (defaults applied). */
export function sharedContext(options: SharedSessionOptions): SharedContext {
  const leaseMs = options.leaseMs ?? 3_000;
  if (!Number.isFinite(leaseMs) || leaseMs < 150) throw new TypeError(`shared.leaseMs must be at least 150 ms, got ${String(leaseMs)}`);
  return {
    sessions: options.sessions,
    bus: options.bus,
    retryAfter: String(options.retryAfterSeconds ?? 1),
    restoring: new Map(),
    instance: randomHex(8),
    journal: options.journal,
    repeatable: options.repeatable,
    leaseMs,
  };
}

type SessionMessage =
  | { readonly t: "state"; readonly from: string; readonly state: unknown }
  | { readonly t: "response"; readonly message: JsonRpcMessage }
  | { readonly t: "close" }
  | { readonly t: "evict" };

/** The 503 of a request that needs the shared store while it is unreachable. */
export function sharedUnavailable(shared: SharedContext, fault: (error: Error) => void, cause: unknown, headers: OutHeaders): FullAnswer {
  const reason = cause instanceof Error ? cause.message : String(cause);
  fault(new HttpServerError(HttpFaultCode.SharedStoreFailed, `the shared session store failed: ${reason}`, { cause }));
  return errorAnswer(503, `the shared session store is unavailable (${reason.slice(0, 200)}); retry in ${shared.retryAfter} s`, { ...headers, "retry-after": shared.retryAfter });
}

/** One replica's part in its session: the `SessionSharing` for the session, the `ConnectContext.shared` for the server, and the bus wiring. */
export interface Replica {
  readonly sharing: SessionSharing;
  readonly state: SharedSessionState;
  /** Subscribes the session channel; resolves once subscribed (responses published after it arrive). */
  attach(session: Session): Promise<void>;
  /** Unsubscribes everything (the local replica closed). */
  detach(): void;
}

function parse(text: string): SessionMessage | undefined {
  try {
    const value = JSON.parse(text) as SessionMessage;
    return typeof value === "object" && value !== null && typeof value.t === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Creates the replica wiring of session `record` on this instance. */
export function createReplica(shared: SharedContext, record: SessionRecord, fault: (error: Error) => void): Replica {
  const { bus, sessions } = shared;
  const tag = randomHex(6);
  const listeners = new Set<(state: unknown) => void>();
  let session: Session | undefined;
  let stopSession: (() => unknown) | undefined;
  let stopHolding: Promise<(() => unknown) | undefined> | undefined;
  let closed = false;
  const report = (what: string) => (cause: unknown) => fault(new HttpServerError(HttpFaultCode.SharedStoreFailed, `${what} failed on session ${record.id}`, { cause }));

  function onSession(text: string): void {
    const message = parse(text);
    if (message === undefined || session === undefined) return;
    if (message.t === "state" && message.from !== tag) for (const listener of listeners) listener(message.state);
    if (message.t === "response" && typeof message.message === "object" && message.message !== null) {
      const claimed = session.claim(message.message);
      if (claimed !== undefined) session.sink?.payload(claimed, detachedExchange(record.id));
    }
    if (message.t === "close") void session.close(new HttpServerError(HttpFaultCode.SessionClosed, "the client ended the session (DELETE on another instance)"));
    // an evicted record is gone at once (its slot is free); a replica with a request in flight
    // finishes it and closes at the session's next request (404) or idle expiry
    if (message.t === "evict" && !session.pending) void session.close(new HttpServerError(HttpFaultCode.SessionEvicted, "evicted to make room at maxSessions (shared store): its holder had the most sessions"));
  }

  function onForwarded(text: string): void {
    try {
      const messages = JSON.parse(text) as unknown;
      if (Array.isArray(messages)) session?.forwarded(messages as JsonRpcMessage[]);
    } catch (cause) {
      report("decoding a forwarded message")(cause);
    }
  }

  const sharing: SessionSharing = {
    tag,
    async forward(messages) {
      try {
        return (await bus.publish(`g:${record.id}`, JSON.stringify(messages))) > 0;
      } catch (cause) {
        report("forwarding to the GET stream's instance")(cause);
        return false;
      }
    },
    outbound(streamId, requestId) {
      const journal = shared.journal;
      if (journal !== undefined) Promise.resolve(journal.outbound(shared.instance, streamId, requestId)).catch(report("journaling an outbound request"));
    },
    holding(held) {
      if (closed) return;
      if (held && stopHolding === undefined) {
        stopHolding = Promise.resolve(bus.subscribe(`g:${record.id}`, onForwarded)).catch((cause: unknown) => {
          report("subscribing the GET channel")(cause);
          return undefined;
        });
      } else if (!held && stopHolding !== undefined) {
        const stopping = stopHolding;
        stopHolding = undefined;
        void stopping.then((stop) => stop?.()).catch(report("unsubscribing the GET channel"));
      }
    },
  };

  const state: SharedSessionState = {
    snapshot: record.state,
    async save(next, topics) {
      const version = (next as { protocolVersion?: unknown }).protocolVersion;
      await sessions.update(record.id, { ...(typeof version === "string" ? { protocolVersion: version } : {}), state: next, ...(topics === undefined ? {} : { topics }) });
      await bus.publish(`s:${record.id}`, JSON.stringify({ t: "state", from: tag, state: next }));
    },
    onChange: (listener) => void listeners.add(listener),
  };

  return {
    sharing,
    state,
    async attach(next) {
      session = next;
      stopSession = await bus.subscribe(`s:${record.id}`, onSession);
      if (closed) void Promise.resolve(stopSession()).catch(report("unsubscribing the session channel"));
    },
    detach() {
      if (closed) return;
      sharing.holding(false);
      closed = true;
      if (stopSession !== undefined) void Promise.resolve(stopSession()).catch(report("unsubscribing the session channel"));
      listeners.clear();
    },
  };
}

/** The exchange of a response another instance received: it owes nothing and has no stream. */
function detachedExchange(sessionId: string) {
  return { info: { transport: "http", sessionId }, signal: new AbortController().signal, reply: () => Promise.resolve(), finish: () => undefined } as const;
}

/**
 * Splits a POST's messages: responses this replica's requests await stay (with their original
 * ids); responses to another replica's requests are published on the session channel and
 * removed. Returns the messages to deliver here.
 */
export function routeResponses(shared: SharedContext, session: Session, messages: readonly JsonRpcMessage[], fault: (error: Error) => void): readonly JsonRpcMessage[] {
  let changed = false;
  const local: JsonRpcMessage[] = [];
  for (const message of messages) {
    const id = "id" in message ? message.id : undefined;
    if (isRequest(message) || "method" in message || typeof id !== "string" || !id.includes("~")) {
      local.push(message);
      continue;
    }
    changed = true;
    const claimed = session.claim(message);
    if (claimed !== undefined) {
      local.push(claimed);
      continue;
    }
    Promise.resolve(shared.bus.publish(`s:${session.id ?? ""}`, JSON.stringify({ t: "response", message }))).catch((cause: unknown) => fault(new HttpServerError(HttpFaultCode.SharedStoreFailed, "publishing a client response failed", { cause })));
  }
  return changed ? local : messages;
}

/** Most sessions one notification reaches through `notifySessions` (the rest are reported, not reached). */
export const MAX_NOTIFIED_SESSIONS = 100_000;

/** What `createSessionNotifier` needs: the handler's `shared` stores and its event store. */
export interface SessionNotifierOptions {
  readonly sessions: SessionStore;
  readonly bus: MessageBus;
  /** Where a notification goes when no instance holds the session's GET stream (its standalone stream, resumable anywhere). */
  readonly eventStore: EventStore;
}

/** Delivers notifications to the 2025 sessions of every instance by topic, once each. */
export interface SessionNotifier {
  /**
   * Sends `message` to every live session whose saved topics include `topic`: through the bus to
   * the instance holding its GET stream, or into its standalone stream in the event store when
   * none does. Resolves with how many sessions it reached; rejects when the store is unreachable.
   */
  notifySessions(topic: string, message: JsonRpcNotification): Promise<number>;
}

/**
 * Creates the deployment-wide notifier of the 2025 sessions shared on a store (pass it to the
 * server as part of `stateless.fanout`, e.g. `@proto/redis-stores`' `fanout`). The sessions'
 * topics are what the server layer saved with their state (`SharedSessionState.save`).
 */
export function createSessionNotifier(options: SessionNotifierOptions): SessionNotifier {
  const { sessions, bus, eventStore } = options;
  async function one(id: string, streamPrefix: string, message: JsonRpcNotification, text: string): Promise<void> {
    if ((await bus.publish(`g:${id}`, text)) > 0) return;
    await eventStore.append(`${streamPrefix}.get`, message);
  }
  return {
    async notifySessions(topic, message) {
      const members = await sessions.members(topic, MAX_NOTIFIED_SESSIONS);
      const text = JSON.stringify([message]);
      for (let at = 0; at < members.length; at += 100) {
        await Promise.all(members.slice(at, at + 100).map((m) => one(m.id, m.streamPrefix, message, text)));
      }
      return members.length;
    },
  };
}
