import { afterEach, describe, expect, it, vi } from "vitest";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { discover } from "./fixtures/modern-discover";
import { createScriptedServer } from "./fixtures/scripted-server";

/** A positive `ttlMs` (2026-07-28 server/utilities/caching): fresh while `now < received + ttlMs`, fetched again once stale. */
const clients: Client[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

describe("list cache expiry", () => {
  it("serves the cached list until its ttlMs has passed, then fetches it again", async () => {
    let version = 0;
    const server = await createScriptedServer({
      handlers: {
        "server/discover": discover,
        "tools/list": () => ({ resultType: "complete", ttlMs: 5_000, cacheScope: "public", tools: [{ name: `v${++version}`, inputSchema: { type: "object" } }] }),
      },
    });
    const client = createClient({ info: { name: "t", version: "1" } });
    clients.push(client);
    await client.connect(server.transport);
    vi.useFakeTimers({ toFake: ["performance"] });
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["v1"]);
    vi.advanceTimersByTime(4_999);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["v1"]);
    vi.advanceTimersByTime(2);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["v2"]);
    expect(server.received.filter((r) => r.method === "tools/list")).toHaveLength(2);
  });
});
