import { describe, expect, it } from "vitest";
import { collect, createListCache, paginate } from "./lists";

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("paginate", () => {
  it("fetches pages lazily, one per consumed page", async () => {
    const asked: (string | undefined)[] = [];
    const pages = paginate("x/list", async (cursor) => {
      asked.push(cursor);
      return cursor === undefined ? { items: [1, 2], nextCursor: "b" } : { items: [3], nextCursor: undefined };
    }, 10);
    const iterator = pages[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toBe(1);
    expect(asked).toEqual([undefined]);
    expect(await collect({ [Symbol.asyncIterator]: () => iterator })).toEqual([2, 3]);
    expect(asked).toEqual([undefined, "b"]);
  });

  it("treats an empty page with a cursor as a page, not the end", async () => {
    const items = await collect(paginate("x/list", async (c) => (c === undefined ? { items: [], nextCursor: "1" } : { items: ["a"], nextCursor: undefined }), 10));
    expect(items).toEqual(["a"]);
  });
});

describe("createListCache", () => {
  it("shares one load between concurrent callers and caches the result", async () => {
    const cache = createListCache<number>();
    let loads = 0;
    const d = deferred<number[]>();
    const load = () => (loads++, d.promise);
    const a = cache.get(load);
    const b = cache.get(load);
    d.resolve([1]);
    expect(await a).toEqual([1]);
    expect(await b).toBe(await a);
    expect(await cache.get(load)).toEqual([1]);
    expect(loads).toBe(1);
  });

  it("does not cache a load that an invalidation overtook", async () => {
    const cache = createListCache<number>();
    const stale = deferred<number[]>();
    const first = cache.get(() => stale.promise);
    cache.invalidate();
    const fresh = cache.get(async () => [2]);
    stale.resolve([1]);
    expect(await first).toEqual([1]);
    expect(await fresh).toEqual([2]);
    expect(cache.peek()).toEqual([2]);
  });

  it("does not cache a failed load", async () => {
    const cache = createListCache<number>();
    await expect(cache.get(async () => { throw new Error("no"); })).rejects.toThrow("no");
    expect(cache.peek()).toBeUndefined();
    expect(await cache.get(async () => [3])).toEqual([3]);
  });
});
