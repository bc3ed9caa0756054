/**
 * The stream ids of an unshared session with an event store, kept to forget in the store when
 * the session closes; past a limit, the oldest finished stream is forgotten at once.
 */
import { HttpServerError, HttpFaultCode } from "./errors";
import type { EventStore } from "./event-store";

/** Stream ids a session keeps to forget in the event store when it closes; older finished ones are forgotten at once. */
const MAX_REMEMBERED_STREAMS = 1_000;

/** The remembered stream ids of one session. */
export interface RememberedStreams {
  /**
   * Remembers a stream id to forget in the store when the session closes. Past
   * `MAX_REMEMBERED_STREAMS`, the oldest finished stream is forgotten now, so a long session
   * leaves nothing behind in the store either (a live one is kept: it may still be resumed).
   * The ids are a queue from `createdHead` (oldest first): forgetting the oldest is O(1), and one
   * behind a few live streams moves only those.
   */
  remember(id: string): void;
  /** Every remembered id, forgotten here (the session closes and forgets them in the store), or undefined when there is none. */
  take(): string[] | undefined;
}

/** Creates the memory of a session's stream ids; `live` tells a stream that may still be resumed. */
export function createRememberedStreams(store: EventStore, live: (id: string) => boolean, fault: (error: Error) => void): RememberedStreams {
  let created: string[] = []; // in creation order, from createdHead
  let createdHead = 0;

  function remember(id: string): void {
    created.push(id);
    if (created.length - createdHead <= MAX_REMEMBERED_STREAMS) return;
    let at = createdHead;
    const last = created.length - 1;
    while (at < last && live(created[at] as string)) at++;
    if (at === last) return;
    const old = created[at] as string;
    for (let i = at; i > createdHead; i--) created[i] = created[i - 1] as string;
    createdHead++;
    if (createdHead > MAX_REMEMBERED_STREAMS) {
      created = created.slice(createdHead);
      createdHead = 0;
    }
    const failed = (cause: unknown): void => fault(new HttpServerError(HttpFaultCode.EventStoreFailed, "event store forget failed", { cause }));
    try {
      // an in-memory store forgets synchronously: no promise per POST once past the limit
      const forgotten = store.forget([old]);
      if (forgotten instanceof Promise) forgotten.catch(failed);
    } catch (cause) {
      failed(cause);
    }
  }

  function take(): string[] | undefined {
    if (created.length <= createdHead) return undefined;
    const ids = created.slice(createdHead);
    created = [];
    createdHead = 0;
    return ids;
  }

  return { remember, take };
}
