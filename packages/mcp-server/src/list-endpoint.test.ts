import { describe, expect, it } from "vitest";
import { createListEndpoint } from "./list-endpoint";
import type { ListHost } from "./list-endpoint";
import type { NegotiatedExtensions } from "./extension-negotiate";

function host(decorate?: ListHost["decorate"]) {
  const sent: string[] = [];
  const h: ListHost = {
    pageSize: 2,
    decorate: decorate ?? (() => undefined),
    broadcast: (method) => void sent.push(method),
  };
  return { h, sent };
}
const set = (key: string): NegotiatedExtensions => ({ clients: new Map(), server: undefined, key });

describe("list endpoint", () => {
  it("builds once until invalidated, and caches pages", () => {
    let builds = 0;
    let items = ["a", "b", "c"];
    const { h } = host();
    const list = createListEndpoint(h, { kind: "tools", build: () => (builds++, items), key: (k) => k });
    const p1 = list.page(undefined, undefined);
    expect(list.page(undefined, undefined)).toBe(p1);
    expect(list.page(p1.nextCursor, undefined).items).toEqual(["c"]);
    expect(builds).toBe(1);
    items = ["d"];
    list.invalidate();
    expect(list.page(undefined, undefined).items).toEqual(["d"]);
    expect(builds).toBe(2);
  });

  it("coalesces a burst of invalidations into one notification", async () => {
    const { h, sent } = host();
    const list = createListEndpoint(h, { kind: "tools", build: () => [], key: String, notification: "notifications/tools/list_changed" });
    list.invalidate();
    list.invalidate();
    list.invalidate();
    expect(sent).toEqual([]);
    await Promise.resolve();
    expect(sent).toEqual(["notifications/tools/list_changed"]);
    list.invalidate();
    await Promise.resolve();
    expect(sent).toHaveLength(2);
    expect(list.version).toBe(4);
  });

  it("decorates per negotiated set, once per version, shared by equal keys", () => {
    let calls = 0;
    const { h } = host(<T,>(_kind: string, items: readonly T[], n: NegotiatedExtensions) => {
      calls++;
      return n.key === "plain" ? undefined : items.map((i) => `${String(i)}@${n.key}` as T);
    });
    const list = createListEndpoint(h, { kind: "tools", build: () => ["a"], key: (k) => k });
    expect(list.items(set("one"))).toEqual(["a@one"]);
    expect(list.items(set("plain"))).toEqual(["a"]);
    expect(list.items(set("one"))).toEqual(["a@one"]);
    expect(list.items()).toEqual(["a"]);
    expect(calls).toBe(2);
    list.invalidate();
    list.items(set("one"));
    expect(calls).toBe(3);
  });

  it("keeps at most 64 decorated sets, dropping the oldest first", () => {
    const seen: string[] = [];
    const { h } = host(<T,>(_kind: string, items: readonly T[], n: NegotiatedExtensions) => {
      seen.push(n.key);
      return items.map((i) => `${String(i)}@${n.key}` as T);
    });
    const list = createListEndpoint(h, { kind: "tools", build: () => ["a"], key: (k) => k });
    for (let i = 0; i < 65; i++) list.items(set(`k${i}`));
    expect(seen).toHaveLength(65);
    expect(list.items(set("k64"))).toEqual(["a@k64"]);
    expect(list.items(set("k1"))).toEqual(["a@k1"]);
    expect(seen).toHaveLength(65);
    expect(list.items(set("k0"))).toEqual(["a@k0"]);
    expect(seen).toHaveLength(66);
  });
});
