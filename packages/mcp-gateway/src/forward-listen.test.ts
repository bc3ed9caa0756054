import { describe, expect, it } from "vitest";
import type { Client } from "@proto/mcp-client";
import type { RequestContext } from "@proto/mcp-server";
import type { ChildRuntime } from "./child";
import { createListenHolds, interceptListen } from "./forward-listen";

function fakeChild(name: string) {
  const calls: string[] = [];
  const client = {
    subscribe: async (uri: string) => void calls.push(`subscribe ${uri}`),
    unsubscribe: async (uri: string) => void calls.push(`unsubscribe ${uri}`),
  } as unknown as Client;
  const child = { name, state: "ready", run: <T>(op: (c: Client) => Promise<T>) => op(client) } as unknown as ChildRuntime;
  return { child, calls };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const silent = { warn: () => {}, error: () => {} };

describe("listen holds", () => {
  it("subscribes a child URI once however many streams hold it, under every form they asked, and unsubscribes after the last release", async () => {
    const holds = createListenHolds(silent);
    const { child, calls } = fakeChild("svc");
    const first = holds.hold("svc+file:///a", child, "file:///a");
    const second = holds.hold("file:///a", child, "file:///a");
    const third = holds.hold("svc+file:///a", child, "file:///a");
    await tick();
    expect(calls).toEqual(["subscribe file:///a"]);
    expect(holds.askedFor("svc", "file:///a")).toEqual(["svc+file:///a", "file:///a"]);
    expect(holds.heldBy("svc")).toEqual(["file:///a"]);
    first();
    first(); // a release counts once
    second();
    await tick();
    expect(holds.askedFor("svc", "file:///a")).toEqual(["svc+file:///a"]);
    expect(calls).toEqual(["subscribe file:///a"]);
    third();
    await tick();
    expect(calls).toEqual(["subscribe file:///a", "unsubscribe file:///a"]);
    expect(holds.heldBy("svc")).toEqual([]);
    expect(holds.askedFor("svc", "file:///a")).toEqual([]);
  });

  it("holds the listened URIs while the stream lasts, skips URIs no child serves, and holds nothing for a stream that ended before the pool was ready", async () => {
    const holds = createListenHolds(silent);
    const { child, calls } = fakeChild("svc");
    const routes = { ready: () => Promise.resolve(), holds, route: (uri: string) => (uri.startsWith("svc+") ? { child, uri: uri.slice(4) } : undefined) };
    const params = { notifications: { resourceSubscriptions: ["svc+file:///a", "other+file:///b"] } };
    let end!: () => void;
    const stream = interceptListen(routes, params, {} as RequestContext, () => new Promise<unknown>((resolve) => (end = () => resolve("done"))));
    await tick();
    expect(holds.heldBy("svc")).toEqual(["file:///a"]);
    end();
    expect(await stream).toBe("done");
    await tick();
    expect(calls).toEqual(["subscribe file:///a", "unsubscribe file:///a"]);

    let ready!: () => void;
    const late = { ...routes, ready: () => new Promise<void>((resolve) => (ready = resolve)) };
    await interceptListen(late, params, {} as RequestContext, () => Promise.resolve("ended at once"));
    ready();
    await tick();
    expect(holds.heldBy("svc")).toEqual([]);
  });
});
