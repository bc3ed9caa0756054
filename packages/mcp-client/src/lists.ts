/**
 * Paginated lists (MCP 2025-11-25, server/utilities/pagination): an async iterator that
 * follows `nextCursor`, refusing a cursor seen before (a loop) and stopping at a page
 * limit; and a cache of the full list that `list_changed` invalidates.
 */
import { ClientFaultCode, McpClientError } from "./errors";

/** One page: the items and the cursor of the next page. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | undefined;
}

/** Yields every item of every page, fetching each page when the previous one is consumed. */
export async function* paginate<T>(method: string, fetchPage: (cursor: string | undefined) => Promise<Page<T>>, maxPages: number): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const { items, nextCursor } = await fetchPage(cursor);
    yield* items;
    if (nextCursor === undefined) return;
    if (seen.has(nextCursor)) {
      throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${method}" pages loop: cursor ${JSON.stringify(nextCursor)} came back twice`);
    }
    if (page >= maxPages) {
      throw new McpClientError(ClientFaultCode.InvalidResult, `The server's "${method}" has more than ${maxPages} pages (maxPages); raise maxPages if that is expected`);
    }
    seen.add(nextCursor);
    cursor = nextCursor;
  }
}

/** Collects an async iterable into an array (`Array.fromAsync` needs Node 22). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * How long a fetched list may be reused (2026-07-28 server/utilities/caching): the smallest
 * `ttlMs` of its pages, where an absent or negative one counts as 0. On the 2025 wire lists
 * carry no hint and stay until `list_changed` (`undefined`: no expiry).
 */
export interface TtlTracker {
  /** Reads one page's hint. */
  see(page: object): void;
  /** The list's lifetime in ms, or `undefined` for none. */
  ttl(): number | undefined;
}

/** Creates the tracker of one list fetch; `modern` when the session speaks 2026-07-28. */
export function createTtlTracker(modern: boolean): TtlTracker {
  let ttl: number | undefined;
  return {
    see(page) {
      if (!modern) return;
      const raw = (page as { readonly ttlMs?: unknown }).ttlMs;
      const hint = typeof raw === "number" && Number.isFinite(raw) && raw > 0 ? raw : 0;
      ttl = ttl === undefined ? hint : Math.min(ttl, hint);
    },
    ttl: () => ttl,
  };
}

/** A cached full list. */
export interface ListCache<T> {
  /**
   * The cached list while it is fresh, or the list `load` fetches (shared by concurrent
   * callers). `ttl`, read once the load finished, says how long the list stays fresh
   * (`undefined`: until invalidated).
   */
  get(load: () => Promise<readonly T[]>, ttl?: () => number | undefined): Promise<readonly T[]>;
  /** The cached list without fetching, when there is one (fresh or not). */
  peek(): readonly T[] | undefined;
  /** Drops the list; a fetch already running finishes for its callers but is not cached. */
  invalidate(): void;
}

/** Creates an empty list cache. */
export function createListCache<T>(): ListCache<T> {
  let value: readonly T[] | undefined;
  let staleAt = Number.POSITIVE_INFINITY;
  let generation = 0;
  let inflight: { generation: number; promise: Promise<readonly T[]> } | undefined;
  return {
    get(load, ttl) {
      if (value !== undefined && performance.now() < staleAt) return Promise.resolve(value);
      if (inflight !== undefined && inflight.generation === generation) return inflight.promise;
      const mine = generation;
      const promise = load().then((list) => {
        if (mine === generation) {
          value = list;
          const lifetime = ttl?.();
          staleAt = lifetime === undefined ? Number.POSITIVE_INFINITY : performance.now() + lifetime;
        }
        return list;
      }).finally(() => {
        if (inflight?.promise === promise) inflight = undefined;
      });
      inflight = { generation: mine, promise };
      return promise;
    },
    peek: () => value,
    invalidate() {
      generation++;
      value = undefined;
      inflight = undefined;
    },
  };
}
