/**
 * Notifications on the 2026-07-28 wire (basic/patterns/subscriptions): one
 * `subscriptions/listen` request kept open per modern session, asking for the list changes the
 * server declares (`listChanged`) and `resources/updated` for the URIs the host subscribed to.
 * The stream's notifications reach the client's usual routes (cache invalidation, events), so
 * `subscribe`, `unsubscribe` and `client.on("toolsChanged", ...)` work the same in both eras.
 *
 * The acknowledgement is compared with the request (a type the server did not honour is
 * reported); a stream that drops is opened again after a backoff; changing the subscriptions
 * replaces the stream (the old one is cancelled: on HTTP its response stream is closed, on
 * stdio `notifications/cancelled` is sent). The listener ends with its session. Running tasks
 * are asked for by id (`taskIds`, the tasks extension); a server that does not honour them
 * costs nothing, since tasks are polled anyway.
 */
import type { JsonRpcId, Logger, TrackedRequest } from "@proto/jsonrpc";
import { MetaKey, type ServerCapabilities, type SubscriptionFilter } from "@proto/mcp-protocol";
import type { NotificationParamsRecord } from "./notifications";
import type { RequestOptions } from "./request-options";
import { backoffDelay } from "./backoff";

/** What the listener needs from its client. */
export interface ListenHost {
  /** Sends the listen request on the session (no timeout); `track` is told its JSON-RPC id before it goes out. */
  send(params: { readonly notifications: SubscriptionFilter }, options: RequestOptions, track: (handle: TrackedRequest) => void): Promise<unknown>;
  readonly capabilities: ServerCapabilities;
  readonly subscriptions: ReadonlySet<string>;
  /** The tasks being watched (`notifications/tasks`); empty when task pushes are not wanted. */
  readonly taskIds: ReadonlySet<string>;
  readonly logger: Logger;
}


/** The listener of one modern session. */
export interface Listener {
  /** Reopens the stream with the current subscriptions; resolves once acknowledged (or the stream failed). */
  refresh(): Promise<void>;
  /** Routes `notifications/subscriptions/acknowledged`. */
  acknowledged(params: NotificationParamsRecord): void;
  /** Ends the stream for good. */
  stop(): void;
}

/** How long a stream waits for its acknowledgement before `refresh()` resolves anyway. */
const ACK_WAIT_MS = 10_000;

/** The filter the current state asks for. */
export function listenFilter(capabilities: ServerCapabilities, subscriptions: ReadonlySet<string>, taskIds: ReadonlySet<string> = new Set()): SubscriptionFilter {
  const uris = capabilities.resources?.subscribe === true ? [...subscriptions] : [];
  return {
    ...(taskIds.size > 0 ? { taskIds: [...taskIds] } : {}),
    ...(capabilities.tools?.listChanged === true ? { toolsListChanged: true } : {}),
    ...(capabilities.prompts?.listChanged === true ? { promptsListChanged: true } : {}),
    ...(capabilities.resources?.listChanged === true ? { resourcesListChanged: true } : {}),
    ...(uris.length > 0 ? { resourceSubscriptions: uris } : {}),
  };
}

function missing(asked: SubscriptionFilter, honoured: unknown): string[] {
  const got = (typeof honoured === "object" && honoured !== null ? honoured : {}) as SubscriptionFilter;
  const lost: string[] = [];
  for (const key of ["toolsListChanged", "promptsListChanged", "resourcesListChanged"] as const) if (asked[key] === true && got[key] !== true) lost.push(key);
  for (const uri of asked.resourceSubscriptions ?? []) if (!(got.resourceSubscriptions ?? []).includes(uri)) lost.push(uri);
  return lost;
}

/** Creates the listener of one session; nothing is sent until `refresh()`. */
export function createListener(host: ListenHost): Listener {
  let current: { aborter: AbortController; filter: SubscriptionFilter; ack: () => void; id?: JsonRpcId } | undefined;
  let stopped = false;
  let failures = 0;

  function open(): Promise<void> {
    const filter = listenFilter(host.capabilities, host.subscriptions, host.taskIds);
    current?.aborter.abort(new Error("listen replaced"));
    current = undefined;
    if (stopped || Object.keys(filter).length === 0) return Promise.resolve();
    const aborter = new AbortController();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ACK_WAIT_MS);
      const mine: NonNullable<typeof current> = { aborter, filter, ack: () => { clearTimeout(timer); failures = 0; resolve(); } };
      current = mine;
      // No timeout, no total cap (not even the client's): the stream stays open until replaced or stopped.
      host.send({ notifications: filter }, { signal: aborter.signal, timeoutMs: 0, maxTotalTimeoutMs: 0 }, (handle) => void (mine.id = handle.id)).then(
        () => reopen(mine, undefined),
        (error: unknown) => reopen(mine, error),
      ).finally(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The stream ended (the server closed it, or it dropped): listen again unless it was replaced or stopped. */
  function reopen(which: NonNullable<typeof current>, error: unknown): void {
    if (current !== which || stopped || which.aborter.signal.aborted) return;
    current = undefined;
    failures += 1;
    const delay = backoffDelay(failures, { initialDelayMs: 250, maxDelayMs: 30_000 });
    if (error !== undefined) host.logger.warn(`subscriptions/listen ended (${(error as Error).message ?? String(error)}); listening again in ${delay} ms`);
    setTimeout(() => void open(), delay).unref?.();
  }

  return {
    refresh: open,
    acknowledged(params) {
      const live = current;
      if (live === undefined) return;
      // The acknowledgement of a stream this one replaced (on stdio it may come late): not ours.
      const id = (params?._meta as { readonly [key: string]: unknown } | undefined)?.[MetaKey.SubscriptionId];
      // (compared as text: a server that turned the id into a string still acknowledges its stream)
      if (id !== undefined && live.id !== undefined && String(id) !== String(live.id)) return;
      const lost = missing(live.filter, params?.notifications);
      if (lost.length > 0) host.logger.warn(`The server did not honour every subscription asked for: ${lost.join(", ")}`);
      live.ack();
    },
    stop() {
      stopped = true;
      current?.aborter.abort(new Error("listen stopped"));
      current = undefined;
    },
  };
}
