/**
 * A cached, paginated list with coalesced change notifications: what `tools/list`,
 * `resources/list`, `resources/templates/list` and `prompts/list` share.
 *
 * The list is built once and kept until `invalidate()`; pages are cached per cursor. When
 * extensions decorate or filter that kind of list, each negotiated set of extensions (a 2025
 * session's, or a 2026-07-28 request's: see `extension-negotiate.ts`) gets its decorated copy,
 * built once per list version and shared by every session and request with that set; at most
 * `DECORATED_SETS` copies are kept, the oldest dropped first. `invalidate()` schedules one
 * `list_changed` notification per burst of changes (coalesced in a microtask) to every
 * initialized session.
 */
import type { NegotiatedExtensions } from "./extension-negotiate";
import type { Page, PageSource } from "./pagination";
import { createPageSource, paginate } from "./pagination";
import { listDigest } from "./stateless/fanout";
import type { ServerSession } from "./session-types";

/** The lists extensions can decorate; features may use other names (they are then never decorated). */
export type ListKind = "tools" | "resources" | "resourceTemplates" | "prompts";

/** How to build a list. */
export interface ListSpec<T> {
  /** Which list this is, for extension decorators. */
  readonly kind: ListKind | (string & {});
  /** Builds the full, undecorated list; called again only after `invalidate()`. */
  build(): readonly T[];
  /** The unique key of an item (a tool's name, a resource's URI). */
  key(item: T): string;
  /** The `list_changed` notification method; omit to send none. */
  readonly notification?: string;
  /** Which initialized sessions receive the notification (default: all). */
  notifies?(session: ServerSession): boolean;
}

/** A list served to sessions. */
export interface ListEndpoint<T> {
  /** One page for a client that negotiated `negotiated` (decorated for it; undecorated when undefined). Throws `JsonRpcError` -32602 for a bad cursor. */
  page(cursor: unknown, negotiated: NegotiatedExtensions | undefined, pageSize?: number): Page<T>;
  /** The whole list as a client that negotiated `negotiated` sees it (undecorated when undefined). */
  items(negotiated?: NegotiatedExtensions): readonly T[];
  /** The undecorated item whose key is `key`, or undefined. */
  get(key: string): T | undefined;
  /** Marks the list changed: it is rebuilt on next use, and one `list_changed` goes out. */
  invalidate(): void;
  /** Increases on every `invalidate()`. */
  readonly version: number;
}

/** What a list needs from the server. */
export interface ListHost {
  readonly pageSize: number;
  /** Decorates a list for a negotiated set of extensions; returns undefined when no extension touches `kind`. */
  decorate<T>(kind: string, items: readonly T[], negotiated: NegotiatedExtensions): readonly T[] | undefined;
  /** Sends `method` to every initialized session accepted by `filter`; `version` digests the list as it is now (deployment-wide dedupe). */
  broadcast(method: string, params: undefined, filter?: (session: ServerSession) => boolean, version?: () => string): void;
}

interface Snapshot<T> {
  readonly version: number;
  readonly source: PageSource<T>;
  readonly pages: Map<string, Page<T>>;
}

/** How many decorated copies (distinct negotiated sets) one list keeps. */
const DECORATED_SETS = 64;

/** Creates a list endpoint. */
export function createListEndpoint<T>(host: ListHost, spec: ListSpec<T>): ListEndpoint<T> {
  let version = 0;
  let shared: Snapshot<T> | undefined;
  let scheduled = false;
  // By negotiated set (its key): the decorated snapshot, or undefined when no extension decorates this kind.
  const decorated = new Map<string, { readonly version: number; readonly snap: Snapshot<T> | undefined }>();

  // Lists and pages are shared by every session and request: frozen, so no interceptor can change them for others.
  const snapshot = (items: readonly T[]): Snapshot<T> => ({ version, source: createPageSource(Object.freeze([...items]), spec.key), pages: new Map() });
  const base = (): Snapshot<T> => {
    if (shared === undefined || shared.version !== version) shared = snapshot(spec.build());
    return shared;
  };
  const forSet = (negotiated: NegotiatedExtensions | undefined): Snapshot<T> => {
    const root = base();
    if (negotiated === undefined) return root;
    const cached = decorated.get(negotiated.key);
    if (cached !== undefined && cached.version === version) return cached.snap ?? root;
    const items = host.decorate(spec.kind, root.source.items, negotiated);
    const own = items === undefined ? undefined : snapshot(items);
    if (cached !== undefined) decorated.delete(negotiated.key);
    else if (decorated.size >= DECORATED_SETS) decorated.delete(decorated.keys().next().value as string);
    decorated.set(negotiated.key, { version, snap: own });
    return own ?? root;
  };

  return {
    page(cursor, negotiated, pageSize = host.pageSize) {
      const snap = forSet(negotiated);
      const cacheKey = `${pageSize}:${typeof cursor === "string" ? cursor : ""}`;
      const hit = cursor === undefined || typeof cursor === "string" ? snap.pages.get(cacheKey) : undefined;
      if (hit !== undefined) return hit;
      const page = Object.freeze(paginate(snap.source, cursor, pageSize));
      if (snap.pages.size < 1024) snap.pages.set(cacheKey, page);
      return page;
    },
    items(negotiated) {
      return forSet(negotiated).source.items;
    },
    get(key) {
      const { source } = base();
      const at = source.index.get(key);
      return at === undefined ? undefined : source.items[at];
    },
    invalidate() {
      version++;
      if (spec.notification === undefined || scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        host.broadcast(spec.notification as string, undefined, spec.notifies, () => listDigest(JSON.stringify(base().source.items)));
      });
    },
    get version() {
      return version;
    },
  };
}
