/**
 * The periodic work of the tasks running on this instance, one store round per task kind and
 * interval while any runs: renew their leases (the store fails a task whose lease ran out,
 * so a task whose instance died does not stay `working`), stop those that ended elsewhere
 * (cancelled through another instance: their handler's signal aborts), and collect the input
 * responses another instance stored (`claim`). The interval is the poll interval, at most a
 * third of the lease, so a renewal can fail twice before the lease runs out.
 */
import type { Logger } from "@proto/jsonrpc";
import type { TaskStore } from "./store";

/** What the heartbeat drives. */
export interface HeartbeatHost {
  readonly store: TaskStore;
  readonly logger: Logger;
  readonly leaseMs: number;
  readonly intervalMs: number;
  /** The ids of the tasks running here. */
  running(): readonly string[];
  /** The ids of the running tasks awaiting input. */
  waiting(): readonly string[];
  /** A running task ended elsewhere (or vanished): stop its work. */
  ended(taskId: string): void;
  /** Delivers claimed responses to a waiting task. */
  deliver(taskId: string, responses: { readonly [key: string]: unknown }): void;
}

/** Starts and stops the heartbeat; `wake()` after a task starts running. */
export function createHeartbeat(host: HeartbeatHost): { wake(): void; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  let busy = false;

  async function beat(): Promise<void> {
    const ids = host.running();
    if (ids.length === 0) return stop();
    if (busy) return;
    busy = true;
    try {
      for (const id of await host.store.renew(ids, host.leaseMs)) host.ended(id);
      const waiting = host.waiting();
      const claimed = await Promise.all(waiting.map((id) => host.store.claim(id)));
      waiting.forEach((id, i) => {
        const responses = claimed[i] ?? {};
        if (Object.keys(responses).length > 0) host.deliver(id, responses);
      });
    } catch (error) {
      host.logger.warn("Tasks: lease renewal or input collection failed; retrying at the next interval", error);
    } finally {
      busy = false;
    }
  }

  function stop(): void {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  }

  return {
    wake() {
      if (timer !== undefined) return;
      timer = setInterval(() => void beat(), host.intervalMs);
      (timer as { unref?: () => void }).unref?.();
    },
    stop,
  };
}
