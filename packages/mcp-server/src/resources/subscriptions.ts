/**
 * Per-session resource subscriptions (MCP 2025-11-25, server/resources "Subscriptions"),
 * indexed by URI so an update reaches exactly the sessions subscribed to it, in time
 * proportional to their number.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { ServerSession } from "../session-types";

/** Most URIs one session may subscribe to at once (a client cannot grow server memory without bound). */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;
/** Longest URI a session may subscribe to: with the count limit, at most 4 MiB of URIs per session. */
export const MAX_SUBSCRIBED_URI_LENGTH = 4096;

/** A session's subscriptions. */
export type SubscriptionState = Set<string>;

/** The subscription index shared by every session of one server. */
export interface Subscriptions {
  /** Subscribes; throws -32602 beyond the per-session limit. Idempotent. */
  add(session: ServerSession, state: SubscriptionState, uri: string): void;
  /** Unsubscribes; a URI not subscribed is fine. */
  remove(session: ServerSession, state: SubscriptionState, uri: string): void;
  /** Drops everything of a closed session. */
  forget(session: ServerSession, state: SubscriptionState): void;
  /** The sessions subscribed to `uri`. */
  subscribers(uri: string): readonly ServerSession[];
}

/** Creates an empty subscription index. */
export function createSubscriptions(limit = MAX_SUBSCRIPTIONS_PER_SESSION): Subscriptions {
  const index = new Map<string, Set<ServerSession>>();
  const detach = (session: ServerSession, uri: string): void => {
    const set = index.get(uri);
    set?.delete(session);
    if (set?.size === 0) index.delete(uri);
  };
  return {
    add(session, state, uri) {
      if (state.has(uri)) return;
      if (uri.length > MAX_SUBSCRIBED_URI_LENGTH) {
        throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `URI too long to subscribe to: at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`);
      }
      if (state.size >= limit) {
        throw new JsonRpcError(JsonRpcErrorCode.InvalidParams, `Too many subscriptions: a session may hold ${limit}; unsubscribe from some first`);
      }
      state.add(uri);
      let set = index.get(uri);
      if (set === undefined) index.set(uri, (set = new Set()));
      set.add(session);
    },
    remove(session, state, uri) {
      if (state.delete(uri)) detach(session, uri);
    },
    forget(session, state) {
      for (const uri of state) detach(session, uri);
      state.clear();
    },
    subscribers: (uri) => [...(index.get(uri) ?? [])],
  };
}
