/**
 * The running tasks of one client, by id: where pushed task states go (2025-11-25
 * `notifications/tasks/status`, 2026-07-28 `notifications/tasks` on `subscriptions/listen`),
 * which ids the listen stream asks for, and the stop of every watch when the client closes.
 */
import type { Logger } from "@proto/jsonrpc";
import { NotificationMethod } from "@proto/mcp-protocol";
import type { NotificationParamsRecord } from "./notifications";
import type { TaskSnapshot } from "./task-wire";
import { parseSnapshot } from "./task-wire";

/** One watcher of a task: the handle's push entry and its stop. */
export interface TaskWatcher {
  push(snapshot: TaskSnapshot): void;
  /** The client closed: stop, with this error for `result()`. */
  stop(error: Error): void;
}

/** The registry of one client. */
export interface TaskRegistry {
  /** Starts routing pushes for `taskId` to `watcher`; returns the function that stops it. */
  watch(taskId: string, watcher: TaskWatcher): () => void;
  /** The ids being watched (for the listen filter). */
  readonly ids: ReadonlySet<string>;
  /** Routes one pushed state; `modern` tells which wire it came on. Malformed pushes are logged and dropped. */
  push(params: NotificationParamsRecord, modern: boolean): void;
  /** Stops every watch (the client was closed). */
  stopAll(error: Error): void;
}

/** Creates a registry; `changed` runs when the set of watched ids changes (to renew the listen stream). */
export function createTaskRegistry(logger: Logger, changed: () => void): TaskRegistry {
  const watchers = new Map<string, Set<TaskWatcher>>();
  const ids = new Set<string>();
  return {
    ids,
    watch(taskId, watcher) {
      let set = watchers.get(taskId);
      if (set === undefined) {
        watchers.set(taskId, (set = new Set()));
        ids.add(taskId);
        changed();
      }
      set.add(watcher);
      return () => {
        if (!set.delete(watcher) || set.size > 0 || watchers.get(taskId) !== set) return;
        watchers.delete(taskId);
        ids.delete(taskId);
        changed();
      };
    },
    push(params, modern) {
      const set = typeof params?.taskId === "string" ? watchers.get(params.taskId) : undefined;
      if (set === undefined) return;
      let snapshot: TaskSnapshot;
      try {
        snapshot = parseSnapshot(params, modern, `"${modern ? NotificationMethod.Tasks : NotificationMethod.TaskStatus}" notification`);
      } catch (error) {
        logger.warn("Ignored a malformed task status notification", error);
        return;
      }
      for (const watcher of [...set]) watcher.push(snapshot);
    },
    stopAll(error) {
      for (const set of [...watchers.values()]) for (const watcher of [...set]) watcher.stop(error);
    },
  };
}
