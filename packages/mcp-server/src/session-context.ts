/**
 * Building a request's context: the per-request protocol context (from `_meta`, else the
 * session), then the members features add.
 *
 * Contexts are cheap: each is an object with the request's data as own fields, on a
 * prototype (one per server) whose members (`signal`, `notify`, `request`, and the features'
 * `context` members) are created on first access and then cached on that context. A tool
 * call that never logs or samples allocates none of those closures.
 */
import type { RequestContext as PeerRequestContext } from "@proto/jsonrpc";
import type { ClientCapabilities, Implementation, RequestMeta } from "@proto/mcp-protocol";
import { MetaKey } from "@proto/mcp-protocol";
import type { BaseRequestContext, RequestContext } from "./context";
import type { NegotiatedExtensions } from "./extension-negotiate";
import type { AnyFeature, Mutable } from "./feature";
import type { SessionState } from "./session-state";
import type { ServerSession } from "./session-types";

const NO_META: RequestMeta = Object.freeze({});
const RC = Symbol("peer request context");
const STATE = Symbol("session state");
const NEGOTIATED = Symbol("negotiated extensions");
const TASK = Symbol("task id");
const STARTER = Symbol("task starter");

interface Internal {
  [RC]: PeerRequestContext;
  [STATE]: SessionState;
  /** Set on 2026-07-28 requests, which negotiate their own extensions; else the session's apply. */
  [NEGOTIATED]?: NegotiatedExtensions;
  /** The task the call runs as, once it does. */
  [TASK]?: string;
  /** What `ctx.startTask()` does for this call (a tool registered with `taskStart: "handler"`). */
  [STARTER]?: () => Promise<boolean>;
}

/**
 * Makes the call of `ctx` run as task `taskId` from now on: its signal, notifications and
 * requests to the client go through `rc` (the task's), and the members the request had
 * overridden for its own wire (a round's `request`, a modern `log`) are made again from it.
 */
export function retarget(ctx: BaseRequestContext, rc: PeerRequestContext, taskId: string): void {
  const internal = ctx as unknown as Internal & Record<string, unknown>;
  internal[RC] = rc;
  internal[TASK] = taskId;
  delete internal[STARTER];
  for (const name of ["request", "notify", "log", "progress"]) delete internal[name];
}

/** The peer context of the request of `ctx`. */
export function peerContextOf(ctx: BaseRequestContext): PeerRequestContext {
  return (ctx as unknown as Internal)[RC];
}

/** Sets what `ctx.startTask()` does for the call of `ctx`. */
export function setTaskStarter(ctx: BaseRequestContext, start: () => Promise<boolean>): void {
  (ctx as unknown as Internal)[STARTER] = start;
}

/** The extensions negotiated for the request of `ctx`: its own (2026-07-28), else its session's. */
export function negotiatedOf(ctx: BaseRequestContext): NegotiatedExtensions {
  const internal = ctx as unknown as Internal;
  return internal[NEGOTIATED] ?? internal[STATE].negotiated;
}

/** Gives the request of `ctx` its own negotiated extensions (a 2026-07-28 request, from its envelope). */
export function setNegotiated(ctx: BaseRequestContext, negotiated: NegotiatedExtensions): void {
  (ctx as unknown as Internal)[NEGOTIATED] = negotiated;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request's `_meta`, or a frozen empty object. */
export function metaOf(params: unknown): RequestMeta {
  if (!isRecord(params)) return NO_META;
  const meta = params._meta;
  return isRecord(meta) ? (meta as RequestMeta) : NO_META;
}

function own(target: object, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, writable: true, enumerable: true, configurable: true });
}

/** Defines a member created by `make` on first access, then cached on the context; assigning it overrides it. */
function lazy(proto: object, name: string, make: (ctx: RequestContext & Internal) => unknown): void {
  Object.defineProperty(proto, name, {
    get(this: RequestContext & Internal) {
      const value = make(this);
      own(this, name, value);
      return value;
    },
    set(this: object, value: unknown) {
      own(this, name, value);
    },
    enumerable: false,
    configurable: true,
  });
}

/** What `createContextFactory` returns: builds the context of one request. */
export type ContextFactory = (
  state: SessionState,
  view: ServerSession,
  rc: PeerRequestContext,
  meta: RequestMeta,
  version: string,
) => RequestContext;

/** Builds the shared prototype once (per server) and returns the per-request factory. */
export function createContextFactory(features: readonly AnyFeature[]): ContextFactory {
  const proto = {};
  Object.defineProperty(proto, "signal", {
    get(this: Internal) {
      return this[RC].signal;
    },
  });
  Object.defineProperty(proto, "extension", {
    value(this: BaseRequestContext, id: string) {
      return negotiatedOf(this).clients.get(id);
    },
  });
  Object.defineProperty(proto, "taskId", {
    get(this: Internal) {
      return this[TASK];
    },
  });
  Object.defineProperty(proto, "startTask", {
    value(this: Internal) {
      const start = this[STARTER];
      return start === undefined ? Promise.resolve(this[TASK] !== undefined) : start();
    },
  });
  lazy(proto, "notify", (ctx) => (method: string, params?: never) => ctx[RC].notify(method, params));
  lazy(proto, "request", (ctx) => (method: string, params?: never, options?: never) => ctx[RC].request(method, params, options));
  for (const feature of features) {
    for (const [name, make] of Object.entries(feature.context ?? {})) {
      if (typeof make === "function") lazy(proto, name, (ctx) => make(ctx, ctx[STATE].features.get(feature)));
    }
  }
  const eager = features.filter((f) => f.extendContext !== undefined);

  return (state, view, rc, meta, version) => {
    const ctx = Object.create(proto) as Mutable<BaseRequestContext> & Internal;
    const caps = meta[MetaKey.ClientCapabilities];
    const info = meta[MetaKey.ClientInfo];
    ctx.requestId = rc.id;
    ctx.method = rc.method;
    ctx.session = view;
    ctx.principal = rc.info.principal;
    ctx.meta = meta;
    ctx.protocolVersion = version;
    ctx.clientCapabilities = isRecord(caps) ? (caps as ClientCapabilities) : state.clientCapabilities;
    ctx.clientInfo = isRecord(info) ? (info as unknown as Implementation) : state.clientInfo;
    ctx[RC] = rc;
    ctx[STATE] = state;
    for (const feature of eager) feature.extendContext?.(ctx, state.features.get(feature));
    return ctx as unknown as RequestContext;
  };
}
