/**
 * Answering a 2026-07-28 task's input requests (ext-tasks "Task Update Requests"): each key
 * of `inputRequests` is answered once over the task's life (the spec makes keys unique, and
 * polls repeat the open ones), by the client's own roots, sampling and elicitation handlers,
 * and each answer goes on its own `tasks/update` as soon as it is ready, so a slow answer
 * holds up neither polling nor the other answers. An update lost to a connection fault is
 * kept and sent again with the next poll.
 */
import { MetaKey } from "@proto/mcp-protocol";
import type { Core } from "./core";
import type { RequestOptions } from "./request-options";
import type { TaskInputRequest } from "./task-wire";
import { cancelTask, isTransient, updateTask } from "./task-wire";

/** What the answerer needs from its watch. */
export interface InputAnswererHost {
  readonly core: Core;
  readonly taskId: string;
  /** Aborted when the watch ends; handlers see it. */
  readonly signal: AbortSignal;
  /** Options of each `tasks/update`. */
  step(): RequestOptions;
  /** True once the watch is over. */
  done(): boolean;
  /** An update was delivered: poll soon. */
  wake(): void;
  /** Ends the watch with `error`. */
  fail(error: unknown): void;
  /** Options of a request that must outlive the watch (the cancel after a refusal). */
  readonly detached: RequestOptions;
}

/** The answerer of one watch: `answer` takes each look's open requests. */
export interface InputAnswerer {
  answer(requests: { readonly [key: string]: TaskInputRequest }): void;
}

/** Creates the answerer of one watched task. */
export function createInputAnswerer(host: InputAnswererHost): InputAnswerer {
  const { core, taskId } = host;
  const answered = new Set<string>();
  const unsent = new Map<string, unknown>();

  function flush(): void {
    if (host.done() || unsent.size === 0) return;
    const batch = Object.fromEntries(unsent);
    unsent.clear();
    updateTask(core, taskId, batch, host.step()).then(() => host.wake(), (error: unknown) => {
      if (host.done()) return;
      if (!isTransient(error)) return host.fail(error);
      for (const [key, value] of Object.entries(batch)) if (!unsent.has(key)) unsent.set(key, value);
    });
  }

  function answerOne(key: string, request: TaskInputRequest): void {
    // The handler sees the task it serves under the related-task key, as on the 2025-11-25 wire.
    const params = { ...request.params, _meta: { ...(request.params._meta as object | undefined), [MetaKey.RelatedTask]: { taskId } } };
    core.respond(request.method, params, host.signal).then((response) => {
      unsent.set(key, response);
      flush();
    }, (error: unknown) => {
      if (host.done()) return;
      // A refusal or a missing handler ends the call, as in the multi round-trip loop; the server's work is cancelled.
      void cancelTask(core, taskId, host.detached).catch(() => {});
      host.fail(error);
    });
  }

  return {
    answer(requests) {
      for (const [key, request] of Object.entries(requests)) {
        if (answered.has(key)) continue;
        answered.add(key);
        answerOne(key, request);
      }
      flush();
    },
  };
}
