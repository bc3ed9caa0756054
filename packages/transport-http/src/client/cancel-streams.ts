/**
 * Cancelling a request on the 2025-11-25 wire (basic/utilities/cancellation): the client sends
 * `notifications/cancelled`, which a stateful server routes to the request; a stateless server
 * cannot (the notification arrives on a POST of its own), so the answer stream of the request's
 * POST is also closed once every request it carried was cancelled: the server sees the
 * disconnect and aborts the handlers. A stateful session's streams stay open (the transport
 * reports cancellations here only when it holds no session id): the server may still send on
 * them, e.g. `notifications/cancelled` for the sampling request the cancelled call had made.
 */
import type { JsonRpcId, JsonRpcMessage } from "@proto/jsonrpc";
import { cancelledId } from "./modern-post";

/** One POST's stream, as the tracker sees it. */
export interface TrackedStream {
  /** Aborted when the transport closes, or when every request of the POST was cancelled. */
  readonly signal: AbortSignal;
  /** True when the stream was closed because its requests were cancelled. */
  readonly cancelled: boolean;
  /** Stops tracking (the answer is complete or lost). */
  done(): void;
}

/** Tracks the answer streams of the POSTs in flight. */
export interface CancelTracker {
  /** Starts tracking a POST carrying `requestIds`. */
  open(requestIds: readonly JsonRpcId[]): TrackedStream;
  /** Looks at an outbound message: a `notifications/cancelled` closes the stream it empties. */
  observe(message: JsonRpcMessage): void;
}

/** Creates the tracker of one transport; `lifetime` aborts every tracked stream. */
export function createCancelTracker(lifetime: AbortSignal): CancelTracker {
  const byId = new Map<JsonRpcId, { readonly left: Set<JsonRpcId>; readonly aborter: AbortController }>();
  return {
    open(requestIds) {
      const aborter = new AbortController();
      const entry = { left: new Set(requestIds), aborter };
      for (const id of requestIds) byId.set(id, entry);
      const signal = AbortSignal.any([lifetime, aborter.signal]);
      return {
        signal,
        get cancelled() {
          return aborter.signal.aborted;
        },
        done() {
          for (const id of requestIds) if (byId.get(id) === entry) byId.delete(id);
        },
      };
    },
    observe(message) {
      const id = cancelledId(message);
      const entry = id === undefined ? undefined : byId.get(id);
      if (entry === undefined || id === undefined) return;
      byId.delete(id);
      entry.left.delete(id);
      if (entry.left.size === 0) entry.aborter.abort(new Error(`request ${String(id)} was cancelled`));
    },
  };
}
