/**
 * Counts inbound requests not yet answered, so a server transport whose input ended can
 * answer what it already received (`echo '{...}' | server` works) and then close.
 */
import { isRequest, isResponse } from "@proto/jsonrpc";
import type { JsonRpcId, JsonRpcPayload } from "@proto/jsonrpc";

/** The bookkeeping of one transport. */
export interface Outstanding {
  /** Records the requests of an inbound payload. */
  received(payload: JsonRpcPayload): void;
  /** Settles the requests an outbound payload answers; unknown ids are ignored. */
  answered(payload: JsonRpcPayload): void;
  /** Settles one request that will never be answered (the peer cancelled it). */
  dropped(id: JsonRpcId): void;
  /** Requests received and not answered yet. */
  readonly count: number;
}

/** Creates an empty counter. Ids are compared as JSON-RPC does: `1` and `"1"` differ. */
export function createOutstanding(): Outstanding {
  const ids = new Map<JsonRpcId, number>();
  let count = 0;

  function settle(id: JsonRpcId): void {
    const seen = ids.get(id);
    if (seen === undefined) return;
    if (seen === 1) ids.delete(id);
    else ids.set(id, seen - 1);
    count--;
  }

  function each(payload: JsonRpcPayload, visit: (message: unknown) => void): void {
    if (Array.isArray(payload)) for (const message of payload as readonly unknown[]) visit(message);
    else visit(payload);
  }

  return {
    received(payload) {
      each(payload, (message) => {
        if (!isRequest(message)) return;
        ids.set(message.id, (ids.get(message.id) ?? 0) + 1);
        count++;
      });
    },
    answered(payload) {
      if (count === 0) return;
      each(payload, (message) => {
        if (isResponse(message) && message.id !== null) settle(message.id);
      });
    },
    dropped: settle,
    get count() {
      return count;
    },
  };
}
