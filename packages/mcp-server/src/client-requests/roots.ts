/**
 * `roots/list` (MCP 2025-11-25, client/roots): the directories the client exposes. When the
 * client declared `roots.listChanged`, the answer is cached per session until
 * `notifications/roots/list_changed` arrives; otherwise every call asks again.
 */
import { RequestMethod } from "@proto/mcp-protocol";
import type { Root } from "@proto/mcp-protocol";
import { missingCapability } from "./capabilities";
import { MalformedResultError } from "./types";
import type { ClientRequestOptions, ClientTarget } from "./types";

/** Options of `listRoots`. */
export interface ListRootsOptions extends ClientRequestOptions {
  /** Ask the client even when a cached answer exists. */
  readonly fresh?: boolean;
}

/** A session's roots cache. */
export interface RootsState {
  cached: Promise<readonly Root[]> | undefined;
}

function checkRoots(result: unknown): readonly Root[] {
  const roots = (result as { roots?: unknown } | null)?.roots;
  if (!Array.isArray(roots)) throw new MalformedResultError(RequestMethod.RootsList, "roots must be an array");
  for (const root of roots) {
    const r = root as Partial<Root> | null;
    if (typeof r !== "object" || r === null || typeof r.uri !== "string") {
      throw new MalformedResultError(RequestMethod.RootsList, "every root needs a uri string");
    }
    if (r.name !== undefined && typeof r.name !== "string") throw new MalformedResultError(RequestMethod.RootsList, "a root's name must be a string");
  }
  return Object.freeze(roots.map((r: Root) => Object.freeze({ ...r })));
}

/** Asks the client for its roots (or returns the cached answer). Rejects with -32021 when the client did not declare `roots`. */
export function listRoots(target: ClientTarget, state: RootsState, options: ListRootsOptions = {}): Promise<readonly Root[]> {
  const caps = target.clientCapabilities.roots;
  if (caps === undefined) return Promise.reject(missingCapability(target, { roots: {} }, "listRoots()"));
  const cacheable = caps.listChanged === true;
  if (cacheable && options.fresh !== true && state.cached !== undefined) return state.cached;
  const { fresh: _fresh, ...requestOptions } = options;
  const answer = target.request(RequestMethod.RootsList, undefined, requestOptions).then(checkRoots);
  if (cacheable) {
    state.cached = answer;
    answer.catch(() => {
      if (state.cached === answer) state.cached = undefined;
    });
  }
  return answer;
}
