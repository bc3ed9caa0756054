import { describe, expect, it } from "vitest";
import { createListEndpoint } from "./list-endpoint";
import type { ListHost } from "./list-endpoint";
import type { ServerSession } from "./session-types";

function host(decorate?: ListHost["decorate"]) {
  const sent: string[] = [];
  const h: ListHost = {
    pageSize: 2,
    decorate: decorate ?? (() => undefined),
    broadcast: (method) => void sent.push(method),
  };
  return { h, sent };
}
const session = (id: string) => ({ id }) as unknown as ServerSession;

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

  it("decorates per session, once per version", () => {
    let calls = 0;
    const { h } = host(<T,>(_kind: string, items: readonly T[], s: ServerSession) => {
      calls++;
      return s.id === "plain" ? undefined : items.map((i) => `${String(i)}@${s.id}` as T);
    });
    const list = createListEndpoint(h, { kind: "tools", build: () => ["a"], key: (k) => k });
    const one = session("one");
    expect(list.items(one)).toEqual(["a@one"]);
    expect(list.items(session("plain"))).toEqual(["a"]);
    expect(list.items(one)).toEqual(["a@one"]);
    expect(calls).toBe(2);
    list.invalidate();
    list.items(one);
    expect(calls).toBe(3);
  });
});
