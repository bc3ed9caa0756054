/**
 * A set of running children serving one or more upstream sessions: their starts (fail-open,
 * the first lists waiting up to `readyTimeoutMs`), the catalog rebuilt when a child's lists
 * change (upstream sessions told only when what they see changed), and the upstream side of
 * what children send: logs tagged by child (on the stream of the upstream request that caused
 * them when there is exactly one, else to 2025-11-25 sessions, else the gateway's logger),
 * resource updates under rewritten URIs (to 2025-11-25 subscribers and 2026-07-28 listen
 * streams), and sampling / elicitation / roots requests relayed to the upstream client.
 */
import { JsonRpcErrorCode, JsonRpcError } from "@proto/jsonrpc";
import type { ServerRequestContext } from "@proto/mcp-client";
import type { LoggingLevel } from "@proto/mcp-protocol";
import { isInputRoundEnd } from "@proto/mcp-server";
import type { RequestContext, ServerSession } from "@proto/mcp-server";
import { buildCatalog } from "./catalog";
import type { Catalog } from "./catalog";
import { createChild } from "./child";
import type { ChildRuntime } from "./child";
import type { Relay } from "./child-client";
import { createCancelWatch } from "./cancel-watch";
import type { CancelWatch } from "./cancel-watch";
import { createListenHolds } from "./forward-listen";
import type { ListenHolds } from "./forward-listen";
import type { GatewaySettings } from "./settings";
import { childSettings } from "./settings";
import { createUriMapper } from "./uris";
import { ambiguousRequest } from "./errors";

/** The upstream side a pool talks to. */
export interface PoolUpstream {
  /** The sessions to notify. */
  sessions(): Iterable<ServerSession>;
  sendLog(session: ServerSession, level: LoggingLevel, data: unknown, logger: string): void;
  /**
   * Announces a changed list to every upstream, `subscriptions/listen` streams included (the
   * shared pool); without it the pool notifies its own initialized sessions.
   */
  listChanged?(kind: "tools" | "prompts" | "resources"): void;
  /** Delivers `resources/updated` for `uri` to the `subscriptions/listen` streams that listened to it (the shared pool). */
  resourceUpdated?(uri: string): void;
}

/** A set of children and its catalog. */
export interface Pool {
  readonly children: ReadonlyMap<string, ChildRuntime>;
  /** Starts every enabled child; resolves once eager ones settled or `readyTimeoutMs` passed. Rejects when a `required` child fails to start. */
  start(): Promise<void>;
  /** Resolves when the first lists may be answered (start() settled or timed out). */
  ready(): Promise<void>;
  /** True once `ready()` has resolved: a request may be served without waiting for it. */
  readonly isReady: boolean;
  catalog(): Catalog;
  /** Runs a forwarded request, remembering its upstream context so a child's requests travel with it. */
  track<T>(child: string, ctx: RequestContext, run: () => Promise<T>): Promise<T>;
  /** What `track` does before the request: remembers `ctx` as in flight to `child` until `leave`. */
  enter(child: string, ctx: RequestContext): void;
  /** What `track` does once the request settled. */
  leave(child: string, ctx: RequestContext): void;
  /** Cancellation of forwarded `tools/call`s without an `AbortSignal` made per call. */
  readonly cancels: CancelWatch;
  /** Upstream subscriptions, by session. */
  readonly subscriptions: Map<ServerSession, Set<string>>;
  /** URIs listened to by 2026-07-28 `subscriptions/listen` streams. */
  readonly holds: ListenHolds;
  /** The level the upstream last set with `logging/setLevel`; children started later are asked for it. */
  logLevel: LoggingLevel | undefined;
  close(): Promise<void>;
}

/** The initialized upstream session every call in `contexts` came from, if they share one. */
function sessionOfAll(contexts: ReadonlySet<RequestContext>): ServerSession | undefined {
  let session: ServerSession | undefined;
  for (const c of contexts) {
    if (!c.session.initialized || (session !== undefined && c.session !== session)) return undefined;
    session = c.session;
  }
  return session;
}

const CAPABILITY: { readonly [method: string]: "sampling" | "elicitation" | "roots" } = {
  "sampling/createMessage": "sampling",
  "elicitation/create": "elicitation",
  "roots/list": "roots",
};

/** Creates a pool; nothing runs until `start()`. */
export function createPool(settings: GatewaySettings, upstream: PoolUpstream): Pool {
  const children = new Map<string, ChildRuntime>();
  const inFlight = new Map<string, Set<RequestContext>>();
  const subscriptions = new Map<ServerSession, Set<string>>();
  let catalog: Catalog | undefined;
  let shown: { readonly tools: string; readonly prompts: string; readonly resources: string } | undefined;
  let started: Promise<void> | undefined;
  let readyGate: Promise<void> | undefined;
  let isReady = false;

  const rebuild = (): Catalog =>
    buildCatalog(
      [...children.values()].map((c) => ({ name: c.name, snapshot: c.snapshot, filters: settings.filters(c.name) })),
      { gateway: settings.name, separator: settings.separator, style: settings.style },
    );

  const view = (c: Catalog) => ({
    tools: JSON.stringify(c.tools.map((t) => t.tool)),
    prompts: JSON.stringify(c.prompts.map((p) => p.prompt)),
    resources: JSON.stringify([c.resources.map((r) => r.resource), c.templates.map((t) => t.template)]),
  });

  function changed(): void {
    catalog = rebuild();
    for (const warning of catalog.warnings) settings.logger.warn(`gateway: ${warning}`);
    const next = view(catalog);
    const before = shown ?? next;
    shown = next;
    for (const kind of ["tools", "prompts", "resources"] as const) {
      if (before[kind] === next[kind]) continue;
      if (upstream.listChanged !== undefined) {
        upstream.listChanged(kind);
        continue;
      }
      for (const session of upstream.sessions()) {
        if (session.initialized) void session.notify(`notifications/${kind}/list_changed`).catch(() => {});
      }
    }
  }

  function relayFor(child: string): Relay {
    return async (method, params, context: ServerRequestContext) => {
      const contexts = inFlight.get(child);
      const ctx = contexts?.size === 1 ? [...contexts][0] : undefined;
      const session = ctx?.session ?? (contexts !== undefined && contexts.size > 1 ? sessionOfAll(contexts) : [...upstream.sessions()].filter((s) => s.initialized).pop());
      const capabilities = ctx?.clientCapabilities ?? session?.clientCapabilities ?? {};
      const needed = CAPABILITY[method] as "sampling" | "elicitation" | "roots";
      // Several calls in flight from different upstreams: the request is one of theirs, never a bystander's.
      if (ctx === undefined && session === undefined && (contexts?.size ?? 0) > 1) throw ambiguousRequest(child, method, contexts?.size ?? 0);
      if (session === undefined || capabilities[needed] === undefined) {
        throw new JsonRpcError(JsonRpcErrorCode.MethodNotFound, `The gateway's client did not declare "${needed}", so "${method}" from child "${child}" cannot be relayed`);
      }
      const options = { signal: context.signal, timeoutMs: 600_000 };
      const body = params as { [key: string]: unknown };
      if (ctx === undefined) return session.request(method, body, options);
      return ctx.request(method, body, options).catch((error: unknown) => {
        // A 2026-07-28 input round ended: the upstream retries, which calls the child again, so this call is
        // abandoned now: cancelled on the child, and no longer one its requests could belong to.
        if (isInputRoundEnd(error)) {
          leave(child, ctx);
          pool.cancels.abandon(ctx, error as Error);
        }
        throw error;
      });
    };
  }


  /**
   * A child's log: on the stream of the one upstream request in flight to that child (its
   * era's rules: a 2026-07-28 request's `logLevel`, a session's level), else, as outside a
   * request, to the initialized 2025-11-25 sessions; with none (a stateless upstream has no
   * session to log to), to the gateway's logger.
   */
  function log(child: string, level: LoggingLevel, data: unknown, tag: string): void {
    const contexts = inFlight.get(child);
    const ctx = contexts?.size === 1 ? [...contexts][0] : undefined;
    if (ctx !== undefined) {
      void ctx.log(level, data, tag).catch(() => {});
      return;
    }
    let sent = false;
    for (const session of upstream.sessions()) {
      if (!session.initialized) continue;
      upstream.sendLog(session, level, data, tag);
      sent = true;
    }
    if (sent) return;
    const text = `gateway: child log (${tag}, ${level}) outside a request: ${typeof data === "string" ? data : JSON.stringify(data)}`.slice(0, 2000);
    if (level === "debug") settings.logger.debug?.(text);
    else if (level === "info" || level === "notice") settings.logger.info?.(text);
    else if (level === "warning") settings.logger.warn(text);
    else settings.logger.error(text);
  }

  const holds = createListenHolds(settings.logger);
  for (const [name, config] of Object.entries(settings.children)) {
    const map = createUriMapper(settings.name, name);
    children.set(
      name,
      createChild(name, config, childSettings(settings, name, config), {
        relay: relayFor(name),
        changed,
        logger: settings.logger,
        logLevel: () => pool.logLevel,
        log: ({ level, logger, data }) => log(name, level as LoggingLevel, data, logger === undefined ? name : `${name}/${logger}`),
        resourceUpdated: (uri) => {
          const exposed = map.toExposed(uri);
          for (const [session, uris] of subscriptions) if (uris.has(exposed)) void session.notify("notifications/resources/updated", { uri: exposed }).catch(() => {});
          for (const asked of holds.askedFor(name, uri)) upstream.resourceUpdated?.(asked);
        },
        subscriptions: () => holds.heldBy(name),
      }),
    );
  }

  shown = view(rebuild());

  function start(): Promise<void> {
    started ??= (async () => {
      const runs = [...children.values()].filter((c) => c.state !== "disabled").map((c) => ({ c, run: c.start() }));
      for (const { run } of runs) run.catch(() => {});
      const required = runs.filter(({ c }) => c.config.required === true).map(({ run }) => run);
      const eager = runs.filter(({ c }) => c.config.lifecycle !== "lazy").map(({ run }) => run.catch(() => {}));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, settings.readyTimeoutMs)));
      readyGate = Promise.race([Promise.all(eager).then(() => {}), timeout]).finally(() => {
        clearTimeout(timer);
        isReady = true;
      });
      await Promise.all([readyGate, ...required]);
    })();
    return started;
  }

  function enter(child: string, ctx: RequestContext): void {
    let set = inFlight.get(child);
    if (set === undefined) inFlight.set(child, (set = new Set()));
    set.add(ctx);
  }

  function leave(child: string, ctx: RequestContext): void {
    inFlight.get(child)?.delete(ctx);
  }

  const pool: Pool = {
    children,
    start,
    ready: () => (readyGate ?? start().catch(() => {})) as Promise<void>,
    get isReady() {
      return isReady;
    },
    catalog: () => (catalog ??= rebuild()),
    async track(child, ctx, run) {
      enter(child, ctx);
      try {
        return await run();
      } finally {
        leave(child, ctx);
      }
    },
    enter,
    leave,
    cancels: createCancelWatch(),
    subscriptions,
    holds,
    logLevel: undefined,
    async close() {
      pool.cancels.close();
      await Promise.all([...children.values()].map((c) => c.close().catch(() => {})));
    },
  };
  return pool;
}
