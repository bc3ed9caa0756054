/**
 * One session: a `Peer` over one transport, with the MCP lifecycle in front of every
 * handler (DESIGN.md section 2). Checks, in order, for every session-era request but
 * `initialize`, `ping` and `server/discover`:
 * 1. the `_meta` rule of every request (`checkRequestMeta`): -32602;
 * 2. not initialized: -32600 "send initialize first";
 * 3. inside a JSON-RPC batch when the version is not 2025-03-26: -32600 with its id
 *    (`createBatchRefusedError`), for `ping` and `server/discover` too once a version is known,
 *    as Streamable HTTP answers the same batch.
 * Then the context is built and the route runs through the extensions' interceptors.
 *
 * A request whose `_meta` has the protocol-version key (the claim) is served under the
 * stateless revision instead (`stateless/serve.ts`), whatever its method: per request, so
 * one session (one stdio process) serves a 2025 client and modern requests side by side.
 * A transport that carries one request (a stateless HTTP POST, `SingleRequestTransport`) gets
 * no session of this kind but a `SingleSession` (`session-single.ts`), without a `Peer`.
 */
import { createPeer, JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { JsonRpcParams, RequestContext as PeerRequestContext, Transport } from "@proto/jsonrpc";
import {
  allowsBatches,
  checkRequestMeta,
  createBatchRefusedError,
  hasProtocolClaim,
  isSupportedProtocolVersion,
  LATEST_PROTOCOL_VERSION,
  mcpCancellation,
  RequestMethod,
} from "@proto/mcp-protocol";
import type { RequestContext } from "./context";
import type { ServerCore } from "./core";
import { metaOf } from "./session-context";
import { discover, initialize } from "./session-lifecycle";
import type { SessionState } from "./session-state";
import { createSessionState, createSessionView } from "./session-state";
import { shareSession } from "./session-shared";
import { serveModern } from "./stateless/serve";
import type { ConnectOptions, ServerSession } from "./session-types";

/** A session before its transport starts. */
export interface PendingSession {
  readonly state: SessionState;
  readonly view: ServerSession;
  /** Registers the handler of a method added after connect (an extension's). */
  addMethod(method: string): void;
  /** Starts the transport. */
  start(): Promise<void>;
}

/** The version a session-era request runs under, or undefined before `initialize`. */
function sessionVersion(state: SessionState, rc: PeerRequestContext): string | undefined {
  // connected as initialized, or a stateless HTTP transport (its initialize went to another POST)
  if (state.assumed || (!state.initialized && rc.info.stateless === true)) {
    const header = rc.info.headers?.["mcp-protocol-version"];
    return isSupportedProtocolVersion(header) ? header : (state.protocolVersion ?? LATEST_PROTOCOL_VERSION);
  }
  return state.initialized ? state.protocolVersion : undefined;
}

function effectiveVersion(state: SessionState, rc: PeerRequestContext): string {
  const version = sessionVersion(state, rc);
  if (version === undefined) {
    throw new JsonRpcError(JsonRpcErrorCode.InvalidRequest, `Invalid Request: send initialize first; "${rc.method}" needs an initialized session`);
  }
  return version;
}

function refuseBatch(version: string | undefined, rc: PeerRequestContext): void {
  if (rc.inBatch && version !== undefined && !allowsBatches(version)) throw createBatchRefusedError(version);
}

/**
 * Runs the route of `method` through the extensions' interceptors; `own` serves a method that
 * has no route (subscriptions/listen), still through the interceptors. Only a feature with
 * per-session state has its state looked up (a single-request session creates it on demand).
 */
export function runRoute(
  core: ServerCore,
  state: SessionState,
  method: string,
  params: JsonRpcParams | undefined,
  ctx: RequestContext,
  own?: (params: JsonRpcParams | undefined) => unknown,
): unknown {
  const route = own === undefined ? core.routes.get(method) : { feature: undefined, run: (p: JsonRpcParams | undefined) => own(p) };
  if (route === undefined) throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method}`);
  const chain = core.interceptors.get(method);
  const feature = route.feature;
  const state0 = feature?.createState === undefined ? undefined : state.features.get(feature);
  if (chain === undefined || chain.length === 0) return route.run(params, ctx, state0);
  // Each interceptor, and the route, is called at once (no microtask of its own); a synchronous
  // throw of either becomes a rejected promise, so next() and the chain always answer a promise.
  const step = (i: number, p: JsonRpcParams | undefined): Promise<unknown> => {
    const interceptor = chain[i];
    try {
      if (interceptor === undefined) return Promise.resolve(route.run(p, ctx, state0));
      let called = false;
      const next = (changed?: JsonRpcParams): Promise<unknown> => {
        // as hono's compose: running the rest of the chain twice would run the tool twice
        if (called) return Promise.reject(new TypeError(`An interceptor of "${method}" called next() twice; call it at most once`));
        called = true;
        return step(i + 1, changed ?? p);
      };
      return Promise.resolve(interceptor(p, ctx, next));
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return step(0, params);
}

/** Creates a session of `core` over `transport`. */
export function createSession(core: ServerCore, transport: Transport, options: ConnectOptions = {}): PendingSession {
  const peer = createPeer(transport, { logger: core.logger, cancellation: mcpCancellation, ...(core.requestTimeoutMs === undefined ? {} : { requestTimeoutMs: core.requestTimeoutMs }) });
  const state = createSessionState(options.initialized, options.sessionId);
  const view = createSessionView(state, peer);

  const run = (method: string, params: JsonRpcParams | undefined, ctx: RequestContext, own?: (params: JsonRpcParams | undefined) => unknown): unknown =>
    runRoute(core, state, method, params, ctx, own);

  function dispatch(method: string, params: JsonRpcParams | undefined, rc: PeerRequestContext): unknown {
    if (hasProtocolClaim(params)) return serveModern({ core, state, view, rc, run }, method, params);
    checkRequestMeta(params);
    const version = effectiveVersion(state, rc);
    refuseBatch(version, rc);
    return run(method, params, core.createContext(state, view, rc, metaOf(params), version));
  }

  let saved: ((result: unknown) => unknown) | undefined;
  const added = new Set<string>();
  function addMethod(method: string): void {
    if (added.has(method)) return;
    added.add(method);
    peer.handle(method, (params, rc) => (saved === undefined ? dispatch(method, params, rc) : saved(dispatch(method, params, rc))));
  }

  peer.handle("initialize", (params, rc) => {
    if (hasProtocolClaim(params)) return serveModern({ core, state, view, rc, run }, "initialize", params);
    checkRequestMeta(params);
    if (!state.idFixed && rc.info.sessionId !== undefined) state.id = rc.info.sessionId;
    const result = initialize(core, state, view, params, rc.inBatch);
    return saved === undefined ? result : saved(result);
  });
  // allowed before initialize; once a version is known, held to the same batch rule as the rest
  const lifeline = (method: string, answer: () => unknown) => (params: JsonRpcParams | undefined, rc: PeerRequestContext): unknown => {
    if (hasProtocolClaim(params)) return serveModern({ core, state, view, rc, run }, method, params);
    checkRequestMeta(params);
    refuseBatch(sessionVersion(state, rc), rc);
    return answer();
  };
  peer.handle("ping", lifeline("ping", () => ({})));
  peer.handle("server/discover", lifeline("server/discover", () => discover(core)));
  peer.handleNotification("notifications/initialized", () => {});
  for (const method of core.routes.keys()) addMethod(method);
  addMethod(RequestMethod.SubscriptionsListen);
  for (const [method, route] of core.notificationRoutes) {
    peer.handleNotification(method, (params, nc) => {
      if (!state.initialized) return;
      return route.run(params, { method, session: view, info: nc.info }, state.features.get(route.feature));
    });
  }
  for (const feature of core.features) {
    if (feature.createState !== undefined) state.features.set(feature, feature.createState(view));
  }
  if (options.shared !== undefined) {
    const save = shareSession(core, state, view, options.shared);
    // after the handler settles (a failed one may still have changed state), the snapshot is saved when it changed
    saved = (result) => Promise.resolve(result).then(
      async (value) => {
        await save();
        return value;
      },
      async (error: unknown) => {
        await save();
        throw error;
      },
    );
  }

  return {
    state,
    view,
    addMethod,
    async start() {
      core.opened(state, view);
      void peer.closed.then(() => core.closed(state, view));
      await peer.start();
    },
  };
}
