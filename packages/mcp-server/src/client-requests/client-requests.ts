/**
 * The client-requests feature: sampling, elicitation (form and URL modes) and roots, on
 * every request context (`ctx.sample`, `ctx.elicit`, `ctx.elicitUrl`,
 * `ctx.urlElicitationRequired`, `ctx.listRoots`) and on any session outside a request (the
 * API). Requests from a context travel with the request that caused them (on its stream)
 * and are cancelled with it.
 */
import type { JsonRpcError, Logger } from "@proto/jsonrpc";
import { NotificationMethod } from "@proto/mcp-protocol";
import type { CreateMessageRequestParams, CreateMessageResult, Root } from "@proto/mcp-protocol";
import type { BaseRequestContext } from "../context";
import type { Feature } from "../feature";
import type { ServerSession } from "../session-types";
import { createPendingElicitations, elicitForm, elicitUrl, urlElicitationRequired } from "./elicitation";
import type { ElicitationResult, ElicitationSchema, FormElicitation, UrlElicitation, UrlElicitationResult } from "./elicitation-types";
import { listRoots } from "./roots";
import type { ListRootsOptions, RootsState } from "./roots";
import { sample } from "./sampling";
import type { ClientRequestOptions, ClientTarget } from "./types";
import { clientTaskFor, requestAsClientTask } from "../tasks/client-task";

/** Requests to a session's client outside of any request (background work). */
export interface ClientRequestsApi {
  /** `sampling/createMessage` to `session`'s client. */
  sample(session: ServerSession, params: CreateMessageRequestParams, options?: ClientRequestOptions): Promise<CreateMessageResult>;
  /** Form-mode `elicitation/create` to `session`'s client. */
  elicit<const S extends ElicitationSchema>(session: ServerSession, params: FormElicitation<S>, options?: ClientRequestOptions): Promise<ElicitationResult<S>>;
  /** URL-mode `elicitation/create` to `session`'s client. */
  elicitUrl(session: ServerSession, params: UrlElicitation, options?: ClientRequestOptions): Promise<UrlElicitationResult>;
  /**
   * Tells the session that started URL-mode elicitation `elicitationId` that it is complete
   * (`notifications/elicitation/complete`). Call it when your out-of-band flow finishes.
   * Returns false when the id is unknown, already completed, or its session is gone.
   */
  completeElicitation(elicitationId: string): boolean;
  /** `roots/list` to `session`'s client (cached while the client promises `list_changed`). */
  listRoots(session: ServerSession, options?: ListRootsOptions): Promise<readonly Root[]>;
  /** Registers a listener for `notifications/roots/list_changed`; returns a function that removes it. */
  rootsChanged(listener: (session: ServerSession) => void): () => void;
}

function contextTarget(ctx: BaseRequestContext): ClientTarget {
  return {
    get clientCapabilities() {
      return ctx.clientCapabilities;
    },
    get protocolVersion() {
      return ctx.protocolVersion;
    },
    request(method, params, options) {
      const merged = { ...options, signal: options?.signal === undefined ? ctx.signal : AbortSignal.any([ctx.signal, options.signal]) };
      const task = ctx.taskId === undefined ? clientTaskFor((options as ClientRequestOptions | undefined)?.task, ctx.clientCapabilities, ctx.protocolVersion, method) : undefined;
      return task === undefined ? ctx.request(method, params, merged) : requestAsClientTask((m, p, o) => ctx.request(m, p, o), method, params, task, merged);
    },
  };
}

function sessionTarget(session: ServerSession): ClientTarget {
  return {
    get clientCapabilities() {
      return session.clientCapabilities;
    },
    get protocolVersion() {
      return session.protocolVersion;
    },
    request(method, params, options) {
      const task = clientTaskFor((options as ClientRequestOptions | undefined)?.task, session.clientCapabilities, session.protocolVersion, method);
      return task === undefined ? session.request(method, params, options) : requestAsClientTask((m, p, o) => session.request(m, p, o), method, params, task, options);
    },
  };
}

/** Creates the client-requests feature and its API. */
export function createClientRequests(logger: Logger): { feature: Feature<RootsState>; api: ClientRequestsApi } {
  const pending = createPendingElicitations(logger);
  const roots = new WeakMap<ServerSession, RootsState>();
  const listeners = new Set<(session: ServerSession) => void>();
  const rootsOf = (session: ServerSession): RootsState => {
    let state = roots.get(session);
    if (state === undefined) roots.set(session, (state = { cached: undefined }));
    return state;
  };

  const feature: Feature<RootsState> = {
    name: "client-requests",
    createState: rootsOf,
    closeState(_state, session) {
      pending.forget(session);
      roots.delete(session);
    },
    notifications: {
      [NotificationMethod.RootsListChanged](_params, ctx, state) {
        state.cached = undefined;
        for (const listener of [...listeners]) {
          try {
            listener(ctx.session);
          } catch (error) {
            logger.error("a rootsChanged listener threw", error);
          }
        }
      },
    },
    context: {
      sample: (ctx) => (params, options) => sample(contextTarget(ctx), params, options),
      elicit: (ctx) => (params, options) => elicitForm(contextTarget(ctx), params, options),
      elicitUrl: (ctx) => (params, options) => elicitUrl(contextTarget(ctx), ctx.session, pending, params, options),
      urlElicitationRequired: (ctx) => (elicitations, message): JsonRpcError =>
        urlElicitationRequired(contextTarget(ctx), ctx.session, pending, elicitations, message),
      listRoots: (ctx, state) => (options) => listRoots(contextTarget(ctx), state, options),
    },
  };

  const api: ClientRequestsApi = {
    sample: (session, params, options) => sample(sessionTarget(session), params, options),
    elicit: (session, params, options) => elicitForm(sessionTarget(session), params, options),
    elicitUrl: (session, params, options) => elicitUrl(sessionTarget(session), session, pending, params, options),
    completeElicitation: (id) => pending.complete(id),
    listRoots: (session, options) => listRoots(sessionTarget(session), rootsOf(session), options),
    rootsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { feature, api };
}
