import { afterEach, describe, expect, it } from "vitest";
import type { Client } from "./client-types";
import { createClient } from "./client";
import { discover } from "./fixtures/modern-discover";
import { createScriptedServer } from "./fixtures/scripted-server";

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function listing(pages: readonly { ttlMs?: unknown }[], protocol: "auto" | "2025-11-25" = "auto") {
  const server = await createScriptedServer({
    handlers: {
      "server/discover": discover,
      "tools/list": (params) => {
        const index = Number((params as { cursor?: string } | undefined)?.cursor ?? 0);
        const next = index + 1 < pages.length ? { nextCursor: String(index + 1) } : {};
        return { resultType: "complete", cacheScope: "public", tools: [{ name: `t${index}`, inputSchema: { type: "object" } }], ...pages[index], ...next };
      },
    },
  });
  const client = createClient({ info: { name: "t", version: "1" }, protocol });
  clients.push(client);
  await client.connect(server.transport);
  const lists = () => server.received.filter((r) => r.method === "tools/list").length;
  return { client, lists };
}

describe("list caching by ttlMs (2026-07-28)", () => {
  it("a fresh list is reused; the smallest ttlMs of the pages decides", async () => {
    const { client, lists } = await listing([{ ttlMs: 60_000 }, { ttlMs: 30_000 }]);
    expect((await client.listAllTools()).map((t) => t.name)).toEqual(["t0", "t1"]);
    await client.listAllTools();
    expect(lists()).toBe(2);
  });

  for (const ttlMs of [0, -5, undefined, "60000"]) {
    it(`ttlMs ${JSON.stringify(ttlMs)} counts as 0: every listAll fetches again`, async () => {
      const { client, lists } = await listing([{ ttlMs: 60_000 }, ttlMs === undefined ? {} : { ttlMs }]);
      await client.listAllTools();
      await client.listAllTools();
      expect(lists()).toBe(4);
    });
  }

  it("2025 lists carry no hint and stay cached until list_changed", async () => {
    const { client, lists } = await listing([{ ttlMs: 0 }], "2025-11-25");
    await client.listAllTools();
    await client.listAllTools();
    expect(lists()).toBe(1);
  });
});
