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
 * How long a loaded list stays fresh (`undefined`: until invalidated), and whether it belongs
 * to the credentials in use (`isPrivate`: a page said `cacheScope: "private"`).
 */
export interface ListLifetime {
  (): number | undefined;
  readonly isPrivate?: () => boolean;
}

/**
 * How long a fetched list may be reused (2026-07-28 server/utilities/caching): the smallest
 * `ttlMs` of its pages, where an absent or negative one counts as 0; and its scope, private
 * when any page says `cacheScope: "private"` or names no scope. On the 2025 wire lists carry
 * no hint and stay until `list_changed` (`undefined`: no expiry), whoever the user.
 */
export interface TtlTracker {
  /** Reads one page's hints. */
  see(page: object): void;
  /** The list's lifetime in ms, or `undefined` for none; `ttl.isPrivate()` tells its scope. */
  readonly ttl: ListLifetime;
}

/** Creates the tracker of one list fetch; `modern` when the session speaks 2026-07-28. */
export function createTtlTracker(modern: boolean): TtlTracker {
  let ttl: number | undefined;
  let scoped = false;
  return {
    see(page) {
      if (!modern) return;
      const { ttlMs: raw, cacheScope } = page as { readonly ttlMs?: unknown; readonly cacheScope?: unknown };
      const hint = typeof raw === "number" && Number.isFinite(raw) && raw > 0 ? raw : 0;
      ttl = ttl === undefined ? hint : Math.min(ttl, hint);
      if (cacheScope !== "public") scoped = true;
    },
    ttl: Object.assign(() => ttl, { isPrivate: () => scoped }),
  };
}

/** A cached full list. */
export interface ListCache<T> {
  /**
   * The cached list while it is fresh (a private one only for the credentials it was loaded
   * with), or the list `load` fetches (shared by concurrent callers). `lifetime`, read once the
   * load finished, says how long the list stays fresh and whether it is private.
   */
  get(load: () => Promise<readonly T[]>, lifetime?: ListLifetime): Promise<readonly T[]>;
  /**
   * The cached list without fetching, fresh or not, when there is one for the credentials in
   * use: a private list only for the credentials it was loaded with (a promise then, since
   * asking for them is asynchronous).
   */
  peek(): Promise<readonly T[] | undefined> | readonly T[] | undefined;
  /** Drops the list; a fetch already running finishes for its callers but is not cached. */
  invalidate(): void;
}

/** The credentials could not be had (their provider failed): a private list is neither served nor kept. */
const UNKNOWN: unique symbol = Symbol("unknown credentials");
type Credential = string | undefined | typeof UNKNOWN;

/**
 * Creates an empty list cache. `credential` gives an opaque id of the credentials in use (the
 * transport's `credentialId`); it is asked only when a private list is kept or served.
 */
export function createListCache<T>(credential: () => Promise<string | undefined> = async () => undefined): ListCache<T> {
  let value: readonly T[] | undefined;
  let staleAt = Number.POSITIVE_INFINITY;
  /** Set while `value` is private: the credentials it was loaded with. */
  let owner: { readonly id: string | undefined } | undefined;
  /** Once a list came back private, every fetch notes the credentials it starts with. */
  let sawPrivate = false;
  let generation = 0;
  let inflight: { generation: number; promise: Promise<readonly T[]>; startedBy: Promise<Credential> | undefined } | undefined;
  const currentId = (): Promise<Credential> => credential().catch(() => UNKNOWN);

  function keep(mine: number, list: readonly T[], lifetime: ListLifetime | undefined, id: Credential, isPrivate: boolean): readonly T[] {
    if (mine !== generation || id === UNKNOWN) return list;
    value = list;
    owner = isPrivate ? { id } : undefined;
    const ms = lifetime?.();
    staleAt = ms === undefined ? Number.POSITIVE_INFINITY : performance.now() + ms;
    return list;
  }

  /** Keeps a private list for the credentials in use when it arrives, unless they changed while it was fetched. */
  async function keepPrivate(mine: number, list: readonly T[], lifetime: ListLifetime | undefined, startedBy: Promise<Credential> | undefined): Promise<readonly T[]> {
    sawPrivate = true;
    const [before, id] = await Promise.all([startedBy, currentId()]);
    // fetched for other credentials than the ones in use now: its callers get it, the cache does not
    if (startedBy !== undefined && before !== id) return list;
    return keep(mine, list, lifetime, id, true);
  }

  function fetchList(load: () => Promise<readonly T[]>, lifetime: ListLifetime | undefined): Promise<readonly T[]> {
    const mine = generation;
    const startedBy = sawPrivate ? currentId() : undefined;
    const promise = load()
      .then((list) => (lifetime?.isPrivate?.() === true ? keepPrivate(mine, list, lifetime, startedBy) : keep(mine, list, lifetime, undefined, false)))
      .finally(() => {
        if (inflight?.promise === promise) inflight = undefined;
      });
    inflight = { generation: mine, promise, startedBy };
    return promise;
  }

  /** Joins the fetch running for this generation, when it was started for the same credentials (or none are tracked). */
  function join(load: () => Promise<readonly T[]>, lifetime: ListLifetime | undefined): Promise<readonly T[]> {
    const running = inflight;
    if (running === undefined || running.generation !== generation) return fetchList(load, lifetime);
    if (running.startedBy === undefined) return running.promise;
    return Promise.all([running.startedBy, currentId()]).then(([theirs, mine]) => (theirs === mine && mine !== UNKNOWN ? running.promise : fetchList(load, lifetime)));
  }

  /** A fresh private list: served when the credentials in use are the ones it was loaded with, else fetched for them. */
  async function servePrivate(list: readonly T[], loadedBy: string | undefined, load: () => Promise<readonly T[]>, lifetime: ListLifetime | undefined): Promise<readonly T[]> {
    const id = await currentId();
    if (id === loadedBy && value === list) return list;
    return join(load, lifetime);
  }

  return {
    get(load, lifetime) {
      if (value !== undefined && performance.now() < staleAt) return owner === undefined ? Promise.resolve(value) : servePrivate(value, owner.id, load, lifetime);
      return join(load, lifetime);
    },
    peek() {
      if (value === undefined || owner === undefined) return value;
      const list = value;
      const loadedBy = owner.id;
      return currentId().then((id) => (id === loadedBy && value === list ? list : undefined));
    },
    invalidate() {
      generation++;
      value = undefined;
      owner = undefined;
      inflight = undefined;
    },
  };
}
