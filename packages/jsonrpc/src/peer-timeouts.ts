/**
 * The timeouts of outbound requests, one timer per group: requests given the same timeout in
 * one synchronous run (until the next microtask) share a timer. Node starts every timer made in
 * one event-loop turn at the same loop time anyway, so each request times out when a timer of
 * its own would have fired; a client that sends many requests at once (a gateway forwarding a
 * batch) makes one `setTimeout` for them, and its answers no `clearTimeout` each (with the
 * timers' garbage, ~0.3 µs a request in Node 20). The timer is cleared once every request of
 * its group has ended.
 */
import type { JsonRpcId } from "./types";

/** Requests that time out together. */
export class TimeoutGroup {
  readonly ids: JsonRpcId[] = [];
  /** Requests of the group not ended yet. */
  live = 0;
  timer: ReturnType<typeof setTimeout> | undefined = undefined;
  constructor(readonly timeoutMs: number) {}
}

/** The timeout groups of one outbound side. */
export interface Timeouts {
  /** Starts the timeout of request `id` (`timeoutMs` > 0); keep the group to `leave` it. */
  join(id: JsonRpcId, timeoutMs: number): TimeoutGroup;
  /** Request ended (or got a timer of its own): its group's timer no longer waits for it. */
  leave(group: TimeoutGroup): void;
}

/** Creates the timeouts of an outbound side; `expire(id, group)` is called for each request of a group whose timer fired (ended ones included: check). */
export function createTimeouts(expire: (id: JsonRpcId, group: TimeoutGroup) => void): Timeouts {
  let open: TimeoutGroup | undefined;
  const close = (): void => {
    open = undefined;
  };
  const fire = (group: TimeoutGroup): void => {
    group.timer = undefined;
    for (const id of group.ids) expire(id, group);
  };
  return {
    join(id, timeoutMs) {
      if (open === undefined || open.timeoutMs !== timeoutMs) {
        if (open === undefined) queueMicrotask(close);
        open = new TimeoutGroup(timeoutMs);
        open.timer = setTimeout(fire, timeoutMs, open);
      }
      open.ids.push(id);
      open.live++;
      return open;
    },
    leave(group) {
      if (--group.live > 0) return;
      if (group.timer !== undefined) clearTimeout(group.timer);
      group.timer = undefined;
      if (open === group) open = undefined;
    },
  };
}
