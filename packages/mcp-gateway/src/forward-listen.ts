/**
 * 2026-07-28 upstreams have no `resources/subscribe`: a client names the URIs it wants updates
 * for in `subscriptions/listen` (`notifications.resourceSubscriptions`), for as long as that
 * stream lasts (MCP 2026-07-28 basic/patterns/subscriptions). The gateway intercepts the listen,
 * subscribes each listened URI's owning child (once, however many streams hold it) for exactly
 * that long, and passes each child `resources/updated` on to the streams under the URI they
 * listened to (namespaced, or the raw child URI a view uses), through the server's own delivery.
 */
import type { JsonRpcParams, Logger } from "@proto/jsonrpc";
import type { RequestContext } from "@proto/mcp-server";
import type { ChildRuntime } from "./child";

/** The listened URIs of one pool, by child. */
export interface ListenHolds {
  /** Holds `asked` (routed to `child`'s `uri`) until the returned release is called; the first hold subscribes the child. */
  hold(asked: string, child: ChildRuntime, uri: string): () => void;
  /** The URIs the streams listened to for this child URI (empty when none). */
  askedFor(child: string, uri: string): readonly string[];
  /** The child URIs held for `child`, to subscribe again after it restarted. */
  heldBy(child: string): readonly string[];
}

interface Held {
  readonly asked: Map<string, number>;
}

/** Creates the holds of one pool; subscription failures are logged (the stream stays open). */
export function createListenHolds(logger: Logger): ListenHolds {
  const byChild = new Map<string, Map<string, Held>>();
  return {
    hold(asked, child, uri) {
      let uris = byChild.get(child.name);
      if (uris === undefined) byChild.set(child.name, (uris = new Map()));
      let held = uris.get(uri);
      if (held === undefined) {
        uris.set(uri, (held = { asked: new Map() }));
        void child.run((client) => client.subscribe(uri)).catch((error: unknown) => logger.warn(`gateway: child "${child.name}" refused a subscription to ${uri.slice(0, 200)}`, error));
      }
      const entry = held;
      entry.asked.set(asked, (entry.asked.get(asked) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const n = (entry.asked.get(asked) ?? 1) - 1;
        if (n > 0) entry.asked.set(asked, n);
        else entry.asked.delete(asked);
        if (entry.asked.size > 0) return;
        uris.delete(uri);
        if (child.state === "ready") void child.run((client) => client.unsubscribe(uri)).catch(() => {});
      };
    },
    askedFor: (child, uri) => [...(byChild.get(child)?.get(uri)?.asked.keys() ?? [])],
    heldBy: (child) => [...(byChild.get(child)?.keys() ?? [])],
  };
}

function listenedUris(params: JsonRpcParams | undefined): readonly string[] {
  const n = (params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)?.notifications;
  const uris = n?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === "string") : [];
}

/** What the interceptor needs from the pool. */
export interface ListenRoutes {
  ready(): Promise<void>;
  /** The owning child and its URI, or undefined for a URI no child serves. */
  route(uri: string): { readonly child: ChildRuntime; readonly uri: string } | undefined;
  readonly holds: ListenHolds;
}

/**
 * The `subscriptions/listen` interceptor: the stream is acknowledged at once (`next()`), the
 * children are subscribed once the pool is ready, and released when the stream ends. A URI no
 * child serves is left to the server (acknowledged, never updated).
 */
export async function interceptListen(routes: ListenRoutes, params: JsonRpcParams | undefined, _ctx: RequestContext, next: () => Promise<unknown>): Promise<unknown> {
  const uris = listenedUris(params);
  if (uris.length === 0) return next();
  const releases: (() => void)[] = [];
  let ended = false;
  void routes.ready().then(() => {
    if (ended) return;
    for (const asked of uris) {
      const target = routes.route(asked);
      if (target !== undefined) releases.push(routes.holds.hold(asked, target.child, target.uri));
    }
  });
  try {
    return await next();
  } finally {
    ended = true;
    for (const release of releases) release();
  }
}
